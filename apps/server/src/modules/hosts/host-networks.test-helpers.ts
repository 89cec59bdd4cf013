import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { createTestApp } from '../../test/test-app.ts';
import { auditLog } from '../audit/audit.tables.ts';
import { hosts, regions } from './hosts.tables.ts';

export const REMOTE_BODY = 'REMOTE-SECRET-BODY-7f3a';

/** A local HTTP server that counts connections and answers every request with REMOTE_BODY. */
export async function startTarget(listenOn: { port: number; host: string } | string) {
  let connections = 0;
  const server: Server = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: REMOTE_BODY }));
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(listenOn as never, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const dockerHost = (regionId: number, name: string, settings: Record<string, unknown>) => ({
  name,
  regionId,
  driver: 'docker',
  portRangeStart: 47_000,
  portRangeEnd: 47_009,
  settings: { ...settings, gpus: { model: 'L40S', memoryGb: 48, count: 1 } },
});

export async function world(hostNetworks: string) {
  const t = await createTestApp({ demo: false, config: { HOST_NETWORKS: hostNetworks } });
  const admin = await t.adminHeaders();
  const [region] = await t.db.insert(regions).values({ name: '测试区', code: 'test-a' }).returning();
  const call = (method: 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  /** A docker host row written straight to the database: as if saved under other settings. */
  const insertHost = async (name: string, settings: Record<string, unknown>) => {
    const [row] = await t.db
      .insert(hosts)
      .values({ regionId: region?.id as number, name, driver: 'docker', settings })
      .returning();
    return row?.id as number;
  };
  const lastAudit = async () =>
    (
      await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'hosts.test_connection'))
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0];
  return { t, call, insertHost, lastAudit, regionId: region?.id as number };
}
