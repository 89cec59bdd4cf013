import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { downloadBills, type ExportFormat } from '../api/export-bills';
import type { BillFilters } from '../api/list-bills';

const b = t.bills;

/** Downloads the records matching the current filters as .xlsx or .csv. */
export function ExportButtons({ filters }: { filters: BillFilters }) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const name = await downloadBills(format, filters);
      void notify('success', b.exported(name));
    } catch (err) {
      void notify('error', err instanceof Error && err.message ? err.message : b.exportFailed);
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <Button
        icon={<FileExcelOutlined />}
        loading={busy === 'xlsx'}
        disabled={busy !== null}
        onClick={() => void run('xlsx')}
        data-testid="export-xlsx"
      >
        {b.exportXlsx}
      </Button>
      <Button
        icon={<FileTextOutlined />}
        loading={busy === 'csv'}
        disabled={busy !== null}
        onClick={() => void run('csv')}
        data-testid="export-csv"
      >
        {b.exportCsv}
      </Button>
    </>
  );
}
