import type { Instance, SshKey } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { IMAGE, instanceTestApp } from '../../../test/instances.ts';
import { simulatedContainers } from '../../hosts/hosts.tables.ts';
import { sshKeyPair } from '../../ssh-keys/ssh-keys.test-helpers.ts';

const clock = fixedClock('2026-11-22T08:00:00Z');
let h: Awaited<ReturnType<typeof instanceTestApp>>;
beforeAll(async () => {
  h = await instanceTestApp(clock);
});
afterAll(() => h.t.close());

type Headers = Record<string, string>;
const addKey = async (headers: Headers, name: string, publicKey: string) =>
  (
    await h.t.app.inject({ method: 'POST', url: '/api/user/ssh-keys', headers, payload: { name, publicKey } })
  ).json().data as SshKey;
const setSsh = (headers: Headers, id: number | string, payload: unknown) =>
  h.t.app.inject({ method: 'PUT', url: `/api/gpu/instance/${id}/ssh`, headers, payload: payload as object });
const make = async (headers: Headers) => {
  const res = await h.create(headers, {
    machineId: await h.idOf('nm-a-l40s-01'),
    instanceName: 'ssh',
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
};
/** What the simulated host recorded of the container: env names and the last SSH access installed. */
const container = async (view: Instance) => {
  const [row] = await h.t.db
    .select()
    .from(simulatedContainers)
    .where(eq(simulatedContainers.id, view.containerId as string));
  return row;
};

describe('SSH keys and the password switch reach the container', () => {
  it("installs the owner's keys at create and re-reads them at every power on, with the switch", async () => {
    const u = await h.funded(100);
    const a = sshKeyPair('ed25519', { comment: 'a@x' });
    const b = sshKeyPair('ecdsa', { comment: 'b@x' });
    const keyA = await addKey(u.headers, 'a', a.publicKey);
    const id = await make(u.headers);
    const running = await h.view(u.headers, id);
    expect(running).toMatchObject({ status: 'RUNNING', sshPasswordAuth: true });
    let row = await container(running);
    expect(row?.envKeys).toEqual(expect.arrayContaining(['SSH_AUTHORIZED_KEYS', 'SSH_PASSWORD_AUTH']));
    expect(row?.sshAccess).toEqual({ authorizedKeys: [a.publicKey], passwordAuth: true });

    // Switched off while running: 200, applies at the next power on.
    const off = await setSsh(u.headers, id, { passwordAuth: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toContain('下次开机时生效');
    expect(off.json().data.sshPasswordAuth).toBe(false);
    expect((await container(running))?.sshAccess?.passwordAuth).toBe(true);

    // Keys changed while it is off: the power on writes the keys as they are then.
    expect((await h.action(u.headers, 'power_off', id)).statusCode).toBe(200);
    await h.t.app.inject({ method: 'DELETE', url: `/api/user/ssh-keys/${keyA.id}`, headers: u.headers });
    await addKey(u.headers, 'b', b.publicKey);
    expect((await h.action(u.headers, 'power_on', id)).statusCode).toBe(200);
    const again = await h.view(u.headers, id);
    expect(again).toMatchObject({ status: 'RUNNING', sshPasswordAuth: false });
    row = await container(again);
    expect(row?.sshAccess).toEqual({ authorizedKeys: [b.publicKey], passwordAuth: false });
    await h.action(u.headers, 'release', id);
  });

  it('without keys the container gets none and password sign-in stays on', async () => {
    const u = await h.funded(100);
    const id = await make(u.headers);
    const row = await container(await h.view(u.headers, id));
    expect(row?.sshAccess).toEqual({ authorizedKeys: [], passwordAuth: true });
    await h.action(u.headers, 'release', id);
  });

  it("the switch: bad input is a 400 naming the field; another user's instance is 404; a released one 409", async () => {
    const owner = await h.funded(100);
    const other = await h.funded(0);
    const id = await make(owner.headers);
    for (const payload of [{}, { passwordAuth: 'no' }, { passwordAuth: 1 }]) {
      const res = await setSsh(owner.headers, id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('passwordAuth');
    }
    expect((await setSsh(owner.headers, 'x', { passwordAuth: false })).statusCode).toBe(400);
    const foreign = await setSsh(other.headers, id, { passwordAuth: false });
    expect(foreign.statusCode).toBe(404);
    expect((await h.view(owner.headers, id)).sshPasswordAuth).toBe(true);
    await h.action(owner.headers, 'power_off', id);
    const stopped = await setSsh(owner.headers, id, { passwordAuth: false });
    expect(stopped.json().message).toContain('开机时生效');
    expect(stopped.json().message).not.toContain('下次');
    await h.action(owner.headers, 'release', id);
    const released = await setSsh(owner.headers, id, { passwordAuth: true });
    expect(released.statusCode).toBe(409);
  });
});
