import { SECRET_MASK } from '@gpu/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostNetworks, parseHostNetworks } from '../../platform/host-networks.ts';
import { secretBoxOf } from '../../platform/secret-box.ts';
import { createTestApp } from '../../test/test-app.ts';
import { sealStoredSecrets } from '../system/secrets.usecases.ts';
import { prepareDatabase } from '../system/system.usecases.ts';
import { createHostDriverRegistry } from './drivers/registry.ts';
import { hosts, regions } from './hosts.tables.ts';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let admin: Record<string, string>;
let regionId: number;

beforeAll(async () => {
  t = await createTestApp({ config: { HOST_NETWORKS: '10.0.0.0/8' } });
  admin = await t.adminHeaders();
  const [region] = await t.db.select().from(regions).where(eq(regions.code, 'anhui-a'));
  regionId = region?.id as number;
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });

/** The row as the database holds it, read with SQL: settings as stored text. */
const storedSettings = async (id: number) => {
  const [row] = await t.db
    .select({ text: sql<string>`${hosts.settings}::text` })
    .from(hosts)
    .where(eq(hosts.id, id));
  return row?.text ?? '';
};

const dockerHost = (name: string, settings: Record<string, unknown>) => ({
  name,
  regionId,
  driver: 'docker',
  portRangeStart: 46_000,
  portRangeEnd: 46_009,
  settings: { ...settings, gpus: { model: 'L40S', memoryGb: 48, count: 2 } },
});

describe('host secrets at rest', () => {
  it('stores the TLS key, SSH key and SSH password sealed: the row holds none of them in plain text', async () => {
    const created = await call(
      'POST',
      '/api/admin/hosts',
      dockerHost('sealed-docker-01', {
        connection: 'tcp',
        host: '10.1.2.3',
        tls: { ca: 'CA-PEM', cert: 'CERT-PEM', key: 'TLS-KEY-SECRET' },
      }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    expect(created.json().data.settings.tls).toEqual({ ca: 'CA-PEM', cert: 'CERT-PEM', key: SECRET_MASK });
    expect(await storedSettings(id)).not.toContain('TLS-KEY-SECRET');

    const ssh = await call('PUT', `/api/admin/hosts/${id}`, {
      settings: {
        connection: 'ssh',
        host: '10.1.2.4',
        ssh: { username: 'gpu', privateKey: 'SSH-KEY-SECRET', password: 'SSH-PASSWORD-SECRET' },
      },
    });
    expect(ssh.statusCode, ssh.body).toBe(200);
    expect(ssh.json().data.settings.ssh).toEqual({
      username: 'gpu',
      privateKey: SECRET_MASK,
      password: SECRET_MASK,
    });
    const text = await storedSettings(id);
    expect(text).not.toContain('SSH-KEY-SECRET');
    expect(text).not.toContain('SSH-PASSWORD-SECRET');
    const box = secretBoxOf(t.app.deps.config);
    const stored = JSON.parse(text) as { ssh: { privateKey: string; password: string } };
    expect(box.open(stored.ssh.privateKey)).toBe('SSH-KEY-SECRET');
    expect(box.open(stored.ssh.password)).toBe('SSH-PASSWORD-SECRET');

    // Sent back masked (as read), the stored secrets stay exactly as they were.
    const again = await call('PUT', `/api/admin/hosts/${id}`, {
      settings: { ...ssh.json().data.settings, port: 2222 },
    });
    expect(again.statusCode, again.body).toBe(200);
    const after = JSON.parse(await storedSettings(id));
    expect(after).toMatchObject({ port: 2222, ssh: stored.ssh });
  });

  it('refuses the mask for a secret the host does not have (400 naming it), as before sealing', async () => {
    const created = await call(
      'POST',
      '/api/admin/hosts',
      dockerHost('sealed-docker-03', { connection: 'ssh', host: '10.1.2.7', ssh: { username: 'gpu' } }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const res = await call('PUT', `/api/admin/hosts/${created.json().data.id}`, {
      settings: { connection: 'tcp', host: '10.1.2.7', tls: { ca: 'CA', cert: 'CERT', key: SECRET_MASK } },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain('settings.tls.key');
  });

  it('hands the docker driver its settings with the secrets opened', async () => {
    const created = await call(
      'POST',
      '/api/admin/hosts',
      dockerHost('sealed-docker-02', {
        connection: 'ssh',
        host: '10.1.2.5',
        ssh: { username: 'gpu', privateKey: 'SSH-KEY-2', password: 'SSH-PASSWORD-2' },
      }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const [row] = await t.db.select().from(hosts).where(eq(hosts.id, created.json().data.id));
    let seen: unknown;
    const registry = createHostDriverRegistry({
      db: t.db,
      box: secretBoxOf(t.app.deps.config),
      hostNetworks: parseHostNetworks('10.0.0.0/8') as HostNetworks,
      docker: {
        connect: (settings) => {
          seen = settings;
          return { modem: { dial: () => undefined } } as never;
        },
      },
    });
    registry.forHost(row as typeof hosts.$inferSelect);
    expect(seen).toMatchObject({
      connection: 'ssh',
      host: '10.1.2.5',
      ssh: { username: 'gpu', privateKey: 'SSH-KEY-2', password: 'SSH-PASSWORD-2' },
    });
  });

  it('seals the plain-text secrets a live database holds, once, at start', async () => {
    const [row] = await t.db
      .insert(hosts)
      .values({
        regionId,
        name: 'plain-docker-legacy',
        driver: 'docker',
        settings: {
          connection: 'tcp',
          host: '10.1.2.6',
          tls: { ca: 'CA', cert: 'CERT', key: 'LEGACY-TLS-KEY' },
          allowInsecureTcp: false,
        },
      })
      .returning();
    const id = row?.id as number;
    expect(await storedSettings(id)).toContain('LEGACY-TLS-KEY');

    // What main.ts does at start: prepareDatabase with the app's box.
    const box = secretBoxOf(t.app.deps.config);
    const { secrets: first } = await prepareDatabase(t.database, {
      demo: true,
      admin: { username: 'admin' },
      box,
    });
    expect(first?.hosts).toBeGreaterThanOrEqual(1);
    const text = await storedSettings(id);
    expect(text).not.toContain('LEGACY-TLS-KEY');
    const sealed = JSON.parse(text).tls.key as string;
    expect(box.open(sealed)).toBe('LEGACY-TLS-KEY');

    // Nothing left to do: a second start rewrites nothing.
    const second = await sealStoredSecrets({ db: t.db, box });
    expect(second).toMatchObject({ hosts: 0, instances: 0, failed: 0 });
    expect(JSON.parse(await storedSettings(id)).tls.key).toBe(sealed);
  });
});
