import { describe, expect, it } from 'vitest';
import { ContainerNotFoundError, DriverFailureError, HostUnreachableError } from '../driver-errors.ts';
import { hostDriverContract } from '../drivers.test-suite.ts';
import type { HostRecord } from '../host-driver.ts';
import { createHostDriverRegistry } from '../registry.ts';
import { FAKE_VAST_IMAGES, type FakeVast, startFakeVast } from './fake-vastai.ts';
import { createVastClient, VastOfferGoneError } from './vastai-api.ts';

/** The vast.ai account as a host row (no database: the driver keeps nothing of its own). */
const vastHost = (id: number, settings: Record<string, unknown> = {}): HostRecord =>
  ({
    id,
    name: `vast-${id}`,
    driver: 'vastai',
    settings: { pollMs: 20, ...settings },
  }) as unknown as HostRecord;

const registryFor = (fake: { url: string; apiKey: string }, over: Record<string, unknown> = {}) =>
  createHostDriverRegistry({
    db: undefined as never,
    vastai: { apiUrl: fake.url, apiKey: fake.apiKey, backoffMs: 5, timeoutMs: 2_000, ...over },
  });

hostDriverContract(
  'vastai (local fake of the vast.ai API)',
  async () => {
    const fake = await startFakeVast({ stepMs: 250 });
    // Every instance of the contract rents a fresh offer.
    const rentals = { rentalOf: async () => ({ offerId: fake.addOffer({ num_gpus: 2 }).id, diskGb: 10 }) };
    const registry = registryFor(fake, { rentals });
    return {
      driver: registry.forHost(vastHost(1)),
      unreachable: createHostDriverRegistry({
        db: undefined as never,
        vastai: { apiUrl: 'http://127.0.0.1:1/api/v0', apiKey: 'k', timeoutMs: 1_000 },
      }).forHost(vastHost(2)),
      image: FAKE_VAST_IMAGES[0] as string,
      portBase: 1,
      specExtras: () => ({ offerId: fake.addOffer({ num_gpus: 2 }).id }),
      createForeignContainer: async () => String(fake.addForeignInstance()),
      removeForeignContainer: async () => undefined,
      close: () => fake.close(),
    };
  },
  { idPattern: /^\d+$/, providerPicksPorts: true, noFinishedAt: true, providerIsolates: true },
);

describe('vastai driver specifics', () => {
  let fake: FakeVast;
  const withFake = async (fn: () => Promise<void>) => {
    // Steps long enough that a 20 ms poll sees each state even on a loaded runner.
    fake = await startFakeVast({ stepMs: 300 });
    try {
      await fn();
    } finally {
      await fake.close();
    }
  };
  const spec = (offerId: number) => ({
    name: `gpu-inst-${offerId}`,
    image: FAKE_VAST_IMAGES[1] as string,
    instanceId: 77,
    userId: 5,
    gpuIndices: [0],
    ports: [
      { containerPort: 22, hostPort: 0 },
      { containerPort: 8888, hostPort: 0 },
    ],
    diskGb: 10,
    env: { ROOT_PASSWORD: 'p' },
    offerId,
  });

  it('rents the offer with PUT /asks/{id}/ (image, disk, label) and reports the SSH address', () =>
    withFake(async () => {
      const driver = registryFor(fake).forHost(vastHost(3));
      const offer = fake.addOffer({ num_gpus: 1 });
      const { containerId } = await driver.create(spec(offer.id));
      const put = fake.requests.find((r) => r.method === 'PUT' && r.path === `/asks/${offer.id}/`);
      expect(put?.body).toMatchObject({
        image: FAKE_VAST_IMAGES[1],
        disk: 10,
        label: `gpu-platform:77:5:gpu-inst-${offer.id}`,
      });
      await driver.start(containerId);
      const state = await driver.inspect(containerId);
      expect(state).toMatchObject({ status: 'running', instanceId: 77, userId: 5, gpuIndices: [0] });
      expect(state.ports.map((p) => p.containerPort).sort()).toEqual([22, 8888]);
      // The offer is taken: a second rent is refused as gone, in Chinese.
      const again = await driver.create({ ...spec(offer.id), name: 'other' }).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(VastOfferGoneError);
      expect((again as Error).message).toContain('已被租用');
    }));

  it('goes created → loading → running, and start waits for running', () =>
    withFake(async () => {
      const client = createVastClient({ apiUrl: fake.url, apiKey: fake.apiKey });
      const offer = fake.addOffer();
      const id = await client.createInstance(offer.id, {
        image: FAKE_VAST_IMAGES[0] as string,
        disk: 10,
        label: 'x',
      });
      const seen = new Set<string>();
      await expect
        .poll(
          async () => {
            const s = (await client.instance(id)).actual_status ?? '';
            seen.add(s);
            return s;
          },
          { interval: 20, timeout: 6_000 },
        )
        .toBe('running');
      expect([...seen]).toEqual(['created', 'loading', 'running']);
    }));

  it('backs off on 429 without Retry-After (×1.5, capped), then succeeds', () =>
    withFake(async () => {
      const waits: number[] = [];
      const client = createVastClient({
        apiUrl: fake.url,
        apiKey: fake.apiKey,
        backoffMs: 100,
        maxBackoffMs: 200,
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      fake.failNext(429, 4);
      expect((await client.currentUser()).id).toBe(4242);
      expect(waits).toEqual([100, 150, 200, 200]);
      fake.failNext(429, 10);
      const err = await client.currentUser().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DriverFailureError);
      expect((err as Error).message).toBe('vast.ai 请求过于频繁，请稍后重试');
    }));

  it('maps errors: 400 invalid_args, 404/410 instances, a wrong key, a timeout', () =>
    withFake(async () => {
      const driver = registryFor(fake).forHost(vastHost(4));
      const offer = fake.addOffer();
      const bad = await driver.create({ ...spec(offer.id), diskGb: 100_000 }).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(DriverFailureError);
      expect((bad as Error).message).toContain('vast.ai 拒绝了请求参数');
      await expect(driver.inspect('123')).rejects.toBeInstanceOf(ContainerNotFoundError);
      const { containerId } = await driver.create(spec(offer.id));
      await driver.remove(containerId);
      await expect(driver.inspect(containerId)).rejects.toBeInstanceOf(ContainerNotFoundError);

      const wrongKey = registryFor(fake, { apiKey: 'nope' }).forHost(vastHost(5));
      await expect(wrongKey.list()).rejects.toThrow('vast.ai API 密钥无效或没有权限');
      const noKey = registryFor(fake, { apiKey: undefined }).forHost(vastHost(6));
      await expect(noKey.list()).rejects.toThrow('海外 GPU（vast.ai）未配置');
      expect((await noKey.probe()).error).toBe('海外 GPU（vast.ai）未配置');
    }));

  it('abandons a call that takes longer than its timeout', async () => {
    const { createServer } = await import('node:http');
    const server = createServer(() => undefined); // never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const client = createVastClient({
        apiUrl: `http://127.0.0.1:${port}/api/v0`,
        apiKey: 'k',
        timeoutMs: 200,
      });
      const err = await client.currentUser().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HostUnreachableError);
      expect((err as Error).message).toBe('无法连接 vast.ai，请稍后重试');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
