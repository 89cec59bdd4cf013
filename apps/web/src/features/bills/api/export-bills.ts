import { API_BASE, TENANT_HEADER } from '@gpu/shared/constants';
import { ApiError } from '../../../lib/api-client';
import { getSession } from '../../../lib/session';
import { t } from '../../../locales/zh-CN';
import type { BillFilters } from './list-bills';

export type ExportFormat = 'xlsx' | 'csv';

/** The file name of `attachment; filename*=UTF-8''…` (or filename="…"), else `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // malformed: try the plain form
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

export function exportUrl(format: ExportFormat, filters: BillFilters): string {
  const params = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return `${API_BASE}/v2/billing/export?${params}`;
}

/**
 * GET /v2/billing/export: a file, not a JSON envelope, so it is fetched here with the user's
 * bearer token and tenant header and handed to the browser as a download.
 */
export async function downloadBills(format: ExportFormat, filters: BillFilters): Promise<string> {
  const token = getSession().token;
  const headers: Record<string, string> = { [TENANT_HEADER]: window.location.hostname };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(exportUrl(format, filters), { headers, signal: AbortSignal.timeout(60_000) });
  } catch {
    throw new ApiError('NETWORK', t.api.network, 0);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(
      String(response.status),
      body?.message || t.api.httpError(response.status),
      response.status,
    );
  }
  const blob = await response.blob();
  const name = attachmentName(
    response.headers.get('content-disposition'),
    `${t.bills.exportFileName}.${format}`,
  );
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
