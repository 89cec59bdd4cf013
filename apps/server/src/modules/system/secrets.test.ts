import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { createSecretBox, secretBoxOf } from '../../platform/secret-box.ts';
import { IMAGE, instanceTestApp } from '../../test/instances.ts';
import { buildServer, testConfig } from '../../test/test-app.ts';
import { createAuthRepository } from '../auth/auth.repository.ts';
import { admins } from '../auth/auth.tables.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { instances } from '../instances/instances.tables.ts';
import { sealStoredSecrets } from './secrets.usecases.ts';

const OLD = 'old-app-secret-old-app-secret-0123456789';
const NEW = 'new-app-secret-new-app-secret-0123456789';
const clock = fixedClock(new Date('2026-11-25T08:00:00Z'));

let h: Awaited<ReturnType<typeof instanceTestApp>>;
let rotated: AppInstance;
beforeAll(async () => {
  h = await instanceTestApp(clock, { APP_SECRET: OLD, HOST_NETWORKS: '10.0.0.0/8' });
});
afterAll(async () => {
  await rotated?.close();
  await h.t.close();
});

/** The same database served under a rotated secret: APP_SECRET new, the old one in APP_SECRET_PREVIOUS. */
const rotate = () =>
  buildServer({
    config: testConfig({
      APP_SECRET: NEW,
      APP_SECRET_PREVIOUS: OLD,
      RATE_LIMITS: 'off',
      HOST_NETWORKS: '10.0.0.0/8',
    }),
    database: h.t.database,
    clock,
    webDist: '/nonexistent',
  });

describe('APP_SECRET rotation', () => {
  it('opens what the previous secret sealed, and re-seals instance passwords and host secrets under the new one', async () => {
    // Under the old secret: an instance (its root password sealed) and a docker host with a TLS key.
    const u = await h.funded(100);
    const created = await h.create(u.headers, {
      machineId: await h.idOf('nm-a-l40s-01'),
      instanceName: 'rotate-1',
      image: IMAGE,
      gpuAmount: 1,
      billingType: 'hourly',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    const password = (await h.view(u.headers, id)).sshPassword as string;
    expect(password).toHaveLength(16);
    const [region] = await h.t.db.select().from(regions).where(eq(regions.code, 'anhui-a'));
    const host = await h.t.app.inject({
      method: 'POST',
      url: '/api/admin/hosts',
      headers: await h.t.adminHeaders(),
      payload: {
        name: 'rotate-docker',
        regionId: region?.id,
        driver: 'docker',
        portRangeStart: 48_000,
        portRangeEnd: 48_009,
        settings: {
          connection: 'tcp',
          host: '10.3.3.3',
          tls: { ca: 'CA', cert: 'CERT', key: 'ROTATE-TLS-KEY' },
        },
      },
    });
    expect(host.statusCode, host.body).toBe(200);
    const hostId = host.json().data.id as number;
    // An administrator's 2FA secret, sealed under the old secret.
    const [admin] = await h.t.db
      .insert(admins)
      .values({
        username: 'rotate-2fa',
        passwordHash: 'x',
        totpSecret: createSecretBox(OLD).seal('JBSWY3DPEHPK3PXP'),
      })
      .returning();

    // Rotated: the old secret only in APP_SECRET_PREVIOUS, and the password still shows.
    rotated = await rotate();
    const sid = randomBytes(12).toString('hex');
    await createAuthRepository({ db: h.t.db }).createSession('user', u.user.id, sid, new Date());
    const token = await rotated.deps.modules.auth.tokens.sign('user', u.user.id, {
      sid,
      tenantId: u.user.tenantId,
    });
    const list = await rotated.inject({
      method: 'GET',
      url: '/api/gpu/instances?size=100',
      headers: { authorization: `Bearer ${token}`, 'x-tenant-host': 'localhost' },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.list.find((i: { id: number }) => i.id === id)).toMatchObject({
      sshPassword: password,
    });

    // The start-up step seals them again under the new secret.
    const report = await sealStoredSecrets({ db: h.t.db, box: secretBoxOf(rotated.deps.config) });
    expect(report.instances).toBeGreaterThanOrEqual(1);
    expect(report.hosts).toBeGreaterThanOrEqual(1);
    expect(report.admins).toBe(1);
    expect(report.failed).toBe(0);

    const onlyNew = createSecretBox(NEW);
    const onlyOld = createSecretBox(OLD);
    const [inst] = await h.t.db.select().from(instances).where(eq(instances.id, id));
    expect(inst?.rootPasswordEnc.startsWith(`s1.${onlyNew.keyId}.`)).toBe(true);
    expect(onlyNew.open(inst?.rootPasswordEnc ?? '')).toBe(password);
    expect(() => onlyOld.open(inst?.rootPasswordEnc ?? '')).toThrow();
    // JupyterLab's token too: after rotation only the new secret may be needed to open it.
    expect(inst?.jupyterTokenEnc?.startsWith(`s1.${onlyNew.keyId}.`)).toBe(true);
    expect(onlyNew.open(inst?.jupyterTokenEnc ?? '')).toMatch(/^[0-9a-f]{48}$/);

    const [row] = await h.t.db.select().from(hosts).where(eq(hosts.id, hostId));
    const key = (row?.settings as { tls?: { key?: string } } | undefined)?.tls?.key ?? '';
    expect(onlyNew.open(key)).toBe('ROTATE-TLS-KEY');
    expect(() => onlyOld.open(key)).toThrow();
    const [sealed] = await h.t.db
      .select()
      .from(admins)
      .where(eq(admins.id, admin?.id as number));
    expect(onlyNew.open(sealed?.totpSecret ?? '')).toBe('JBSWY3DPEHPK3PXP');

    // Once re-sealed, nothing is left for a second run.
    expect(await sealStoredSecrets({ db: h.t.db, box: secretBoxOf(rotated.deps.config) })).toMatchObject({
      hosts: 0,
      instances: 0,
      admins: 0,
      failed: 0,
    });
  });

  it('counts, and leaves alone, a value no configured secret opens', async () => {
    const stranger = createSecretBox('a-third-secret-nobody-configured-0123456789');
    const [inst] = await h.t.db.select().from(instances).limit(1);
    const before = inst?.rootPasswordEnc as string;
    const foreign = stranger.seal('x');
    await h.t.db
      .update(instances)
      .set({ rootPasswordEnc: foreign })
      .where(eq(instances.id, inst?.id as number));
    const report = await sealStoredSecrets({ db: h.t.db, box: createSecretBox(NEW, [OLD]) });
    expect(report.failed).toBe(1);
    const [after] = await h.t.db
      .select()
      .from(instances)
      .where(eq(instances.id, inst?.id as number));
    expect(after?.rootPasswordEnc).toBe(foreign);
    await h.t.db
      .update(instances)
      .set({ rootPasswordEnc: before })
      .where(eq(instances.id, inst?.id as number));
  });
});
