import type { GpuTypeView, RegionView } from '@gpu/shared/catalogue';
import { Button, Select, Table, type TableProps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useAdminCan } from '../../../lib/admin-access';
import { confirmDialog } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { useGpuTypes, useRegionGpuTypes, useSetGpuTypeStatus } from '../api/catalogue';
import styles from './admin.module.css';
import { useAdminLayout } from './responsive';

const c = ta.adminCatalogue;
const g = c.gpuTypes;
const SALE_COLOURS = { all: 'green', some: 'gold', none: 'default' } as const;

/**
 * The GPU models the regions sell (the SKU models of their hosts): all regions at once, or one
 * region, where a model can be taken off sale (停售, after a confirm) or put back (恢复销售).
 */
export function GpuTypesTable({ regions }: { regions: RegionView[] }) {
  const [regionId, setRegionId] = useState<number>();
  const all = useGpuTypes();
  const one = useRegionGpuTypes(regionId);
  const setStatus = useSetGpuTypeStatus();
  const { scrollX } = useAdminLayout();
  const list = regionId === undefined ? all : one;
  const regionName = (id: number) => regions.find((x) => x.id === id)?.name ?? String(id);

  const stop = (regionId: number, row: GpuTypeView) =>
    void confirmDialog({
      title: g.confirmStopTitle(row.gpuModel, regionName(regionId)),
      content: g.confirmStopContent,
      okText: g.stopSale,
      cancelText: c.cancel,
      okButtonProps: { danger: true },
      onOk: () =>
        setStatus
          .mutateAsync({ regionId, body: { gpuModel: row.gpuModel, listed: false } })
          .catch(() => undefined),
    });
  const resume = (regionId: number, row: GpuTypeView) =>
    setStatus.mutate({ regionId, body: { gpuModel: row.gpuModel, listed: true } });

  const canWrite = useAdminCan('catalogue:write');
  const columns: TableProps<GpuTypeView>['columns'] = [
    { title: g.model, dataIndex: 'gpuModel' },
    { title: g.brand, dataIndex: 'gpuBrand' },
    { title: g.memory, dataIndex: 'memoryGb', render: (v: number) => `${v} GB` },
    ...(regionId === undefined
      ? [
          {
            title: g.regions,
            dataIndex: 'regionIds',
            render: (ids: number[]) => ids.map(regionName).join('、'),
          },
        ]
      : []),
    { title: g.skus, dataIndex: 'skuCount' },
    {
      title: g.status,
      dataIndex: 'sale',
      render: (sale: GpuTypeView['sale'], row) => (
        <span className={styles.nowrap}>
          <Tag color={SALE_COLOURS[sale]} data-testid="gpu-type-sale">
            {g.sale[sale]}
          </Tag>
          {sale === 'some' && (
            <Typography.Text type="secondary">{g.listed(row.listedCount, row.skuCount)}</Typography.Text>
          )}
        </span>
      ),
    },
    { title: g.gpus, key: 'gpus', render: (_: unknown, row) => `${row.gpuIdle} / ${row.gpuTotal}` },
    ...(regionId === undefined || !canWrite
      ? []
      : [
          {
            title: c.actions,
            key: 'actions',
            render: (_: unknown, row: GpuTypeView) => (
              <span className={styles.nowrap}>
                {row.sale !== 'none' && (
                  <Button type="link" size="small" danger onClick={() => stop(regionId, row)}>
                    {g.stopSale}
                  </Button>
                )}
                {row.sale !== 'all' && (
                  <Button
                    type="link"
                    size="small"
                    loading={setStatus.isPending && setStatus.variables?.body.gpuModel === row.gpuModel}
                    onClick={() => resume(regionId, row)}
                  >
                    {g.resumeSale}
                  </Button>
                )}
              </span>
            ),
          },
        ]),
  ];

  return (
    <>
      <h3>{c.tabs.gpuTypes}</h3>
      <div className={styles.toolbar}>
        <Select
          allowClear
          placeholder={g.allRegions}
          style={{ width: 180 }}
          value={regionId}
          onChange={(v?: number) => setRegionId(v)}
          options={regions.map((r) => ({ value: r.id, label: r.name }))}
          data-testid="gpu-types-region"
        />
        {regionId === undefined && <Typography.Text type="secondary">{g.pickRegion}</Typography.Text>}
      </div>
      <Table
        rowKey="gpuModel"
        size="small"
        dataSource={list.data ?? []}
        loading={list.isLoading}
        pagination={false}
        scroll={{ x: scrollX }}
        columns={columns}
      />
    </>
  );
}
