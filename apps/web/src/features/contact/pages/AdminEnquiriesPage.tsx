import { CheckOutlined } from '@ant-design/icons';
import { ENQUIRY_STATUSES, type Enquiry, type EnquiryStatus } from '@gpu/shared/contact';
import { formatTime } from '@gpu/shared/time';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Modal, Pagination, Select, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { paging, useListQuery } from '../../../components/admin/list-query';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { ta } from '../../../locales/zh-CN.admin';
import { markEnquiryHandled, useAdminEnquiries } from '../api/admin-enquiries';
import { adminEnquiryKeys, type EnquiryFilters } from '../api/keys';
import styles from './AdminEnquiriesPage.module.css';

const e = ta.adminEnquiries;
const c = t.contact;

/** /admin/enquiries (咨询管理): bare-metal enquiries, filtered by status and text, marked handled. */
export default function AdminEnquiriesPage() {
  const {
    query: filters,
    setQuery: setFilters,
    filter,
  } = useListQuery<EnquiryFilters>({ page: 1, size: 20, status: 'NEW' });
  const [handling, setHandling] = useState<Enquiry | null>(null);
  const [note, setNote] = useState('');
  const { data, isPending, isError } = useAdminEnquiries(filters);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ id, note }: { id: number; note: string }) => markEnquiryHandled(id, note),
    onSuccess: () => {
      void notify('success', e.handled);
      setHandling(null);
      void queryClient.invalidateQueries({ queryKey: adminEnquiryKeys.all });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: e.handleFailed, retry: e.handleFailed })),
  });

  const canWrite = useAdminCan('enquiries:write');
  const columns: TableProps<Enquiry>['columns'] = [
    { title: e.createdAt, dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
    { title: c.name, dataIndex: 'name', width: 110 },
    { title: c.phone, dataIndex: 'phone', width: 140 },
    { title: c.company, dataIndex: 'company', width: 160, render: (v: string | null) => v ?? '-' },
    { title: c.product, dataIndex: 'product', width: 150 },
    { title: c.quantity, dataIndex: 'quantity', width: 70, align: 'right' },
    { title: c.question, dataIndex: 'question', ellipsis: true, render: (v: string | null) => v ?? '-' },
    {
      title: t.blockchain.status,
      dataIndex: 'status',
      width: 150,
      render: (v: EnquiryStatus, r: Enquiry) => (
        <span>
          <Tag color={v === 'NEW' ? 'orange' : 'green'} data-testid="enquiry-status">
            {e.statuses[v]}
          </Tag>
          {r.handledNote ? <div className={styles.note}>{r.handledNote}</div> : null}
        </span>
      ),
    },
    {
      title: t.blockchain.actions,
      width: 130,
      render: (_: unknown, r: Enquiry) =>
        r.status === 'NEW' && canWrite ? (
          <Button
            size="small"
            icon={<CheckOutlined />}
            onClick={() => {
              setNote('');
              setHandling(r);
            }}
            data-testid="enquiry-handle"
          >
            {e.handle}
          </Button>
        ) : null,
    },
  ];

  return (
    <div className={styles.page}>
      <PageHeader title={e.title} subtitle={e.subtitle} />
      <Card>
        <div className={styles.filters}>
          <Select<EnquiryStatus | ''>
            className={styles.status}
            value={filters.status ?? ''}
            onChange={(v) => filter({ status: v || undefined })}
            options={[
              { value: '', label: e.allStatuses },
              ...ENQUIRY_STATUSES.map((s) => ({ value: s, label: e.statuses[s] })),
            ]}
            data-testid="enquiry-status-filter"
          />
          <Input.Search
            className={styles.search}
            placeholder={e.keyword}
            allowClear
            onSearch={(v) => filter({ keyword: v.trim() || undefined })}
          />
        </div>
        {isError ? <Alert type="error" showIcon title={e.loadFailed} className={styles.alert} /> : null}
        <Table<Enquiry>
          rowKey="id"
          columns={columns}
          dataSource={data?.list ?? []}
          loading={isPending}
          pagination={false}
          scroll={{ x: 1200 }}
          locale={{ emptyText: e.empty }}
          data-testid="enquiries-table"
        />
        {data && data.total > 0 ? (
          <Pagination
            className={styles.pager}
            {...paging(filters, data.total, setFilters, { showTotal: e.total })}
          />
        ) : null}
      </Card>
      <Modal
        open={handling !== null}
        title={e.handleTitle}
        okText={t.common.confirm}
        cancelText={t.common.cancel}
        confirmLoading={mutation.isPending}
        onOk={() => handling && mutation.mutate({ id: handling.id, note })}
        onCancel={() => setHandling(null)}
      >
        <p>
          {handling?.name} · {handling?.phone} · {handling?.product}
        </p>
        <Input.TextArea
          value={note}
          onChange={(ev) => setNote(ev.target.value)}
          placeholder={e.notePlaceholder}
          maxLength={500}
          rows={3}
          aria-label={e.note}
          data-testid="enquiry-note"
        />
      </Modal>
    </div>
  );
}
