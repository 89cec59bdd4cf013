import { CopyOutlined } from '@ant-design/icons';
import type { DistributionResult } from '@gpu/shared/distribution';
import { Alert, Button, Modal, Table } from 'antd';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import styles from '../pages/AdminPage.module.css';

const r = ta.adminVoucher.result;
const reasons = ta.adminVoucher.skipReasons;

/**
 * What a distribution did: how many were issued, and each skipped phone with why, so the
 * administrator can fix the list and send those again. The list copies as "phone<TAB>reason" lines,
 * which paste into a spreadsheet as two columns.
 */
export function DistributionResultModal({
  result,
  onClose,
}: {
  result: DistributionResult | null;
  onClose: () => void;
}) {
  const skipped = result?.skipped ?? [];
  const text = skipped.map((s) => `${s.phone}\t${reasons[s.reason]}`).join('\n');
  return (
    <Modal
      open={result !== null}
      title={r.title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {r.ok}
        </Button>
      }
      width={560}
      destroyOnHidden
    >
      {result ? (
        <div data-testid="dist-result">
          <Alert
            type={skipped.length > 0 ? 'warning' : 'success'}
            showIcon
            message={r.summary(result.issuedCount, skipped.length)}
            data-testid="dist-result-summary"
          />
          {skipped.length > 0 ? (
            <>
              <div className={styles.skippedHead}>
                <strong>{r.skippedTitle}</strong>
                <Button
                  size="small"
                  icon={<CopyOutlined />}
                  onClick={() =>
                    void navigator.clipboard
                      .writeText(text)
                      .then(() => notify('success', r.copied))
                      .catch(() => notify('error', r.copyFailed))
                  }
                  data-testid="dist-skipped-copy"
                >
                  {r.copy}
                </Button>
              </div>
              <Table
                rowKey={(s) => `${s.phone}-${s.reason}-${skipped.indexOf(s)}`}
                size="small"
                pagination={skipped.length > 10 ? { pageSize: 10, size: 'small' } : false}
                dataSource={skipped}
                data-testid="dist-skipped"
                columns={[
                  {
                    title: r.phone,
                    dataIndex: 'phone',
                    render: (v: string) => <span translate="no">{v}</span>,
                  },
                  {
                    title: r.reason,
                    dataIndex: 'reason',
                    render: (v: keyof typeof reasons) => reasons[v],
                  },
                ]}
              />
            </>
          ) : (
            <p className={styles.subtitle} style={{ marginTop: 12 }}>
              {r.none}
            </p>
          )}
        </div>
      ) : null}
    </Modal>
  );
}
