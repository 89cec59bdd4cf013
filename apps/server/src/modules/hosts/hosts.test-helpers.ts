import { desc, eq } from 'drizzle-orm';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { regions } from './hosts.tables.ts';

export type T = Awaited<ReturnType<typeof createTestApp>>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The demo world, an admin's headers and the id of region anhui-a. */
export async function hostsTestApp() {
  // The docker hosts here are never connected to; saving them needs their network listed.
  const t = await createTestApp({ config: { HOST_NETWORKS: '10.0.0.0/8' } });
  const admin = await t.adminHeaders();
  const [region] = await t.db.select().from(regions).where(eq(regions.code, 'anhui-a'));
  return { t, admin, regionId: region?.id as number };
}

/** A request with these headers, the payload as JSON when there is one. */
export const callIn = (
  t: T,
  method: Method,
  url: string,
  payload: unknown,
  headers: Record<string, string>,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A simulated host to create through the admin API: four RTX 5090, a 50-port pool. */
export const simulatedHostIn = (regionId: number, name: string, over: Record<string, unknown> = {}) => ({
  name,
  regionId,
  driver: 'simulated',
  cpuModel: 'AMD EPYC 9654',
  cpuCores: 96,
  memoryGb: 768,
  portRangeStart: 45_000,
  portRangeEnd: 45_049,
  settings: { latencyMs: 0, failureRate: 0, gpus: { model: 'RTX 5090', memoryGb: 32, count: 4 } },
  sku: { hourlyPrice: 2.88, cpuPerGpu: 16, memoryPerGpuGb: 96 },
  ...over,
});

/** The latest audit row of an action. */
export const lastAuditIn = async (t: T, action: string) =>
  (
    await t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1)
  )[0];

/** A host's item in the market of the localhost tenant. */
export const marketItemIn = async (t: T, hostName: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/gpu/market?size=48',
    headers: { 'x-tenant-host': 'localhost' },
  });
  return (
    res.json().data.list as { hostName: string; gpuNum: number; gpuIdleNum: number; price: number }[]
  ).find((i) => i.hostName === hostName);
};
