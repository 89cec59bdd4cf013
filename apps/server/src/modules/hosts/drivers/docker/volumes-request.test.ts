import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ContainerConflictError } from '../driver-errors.ts';
import { LABELS } from '../host-driver.ts';
import { DATA_MOUNT_PATH } from '../volumes.ts';
import { type CreateBody, type Engine, spec } from './create-request.test-helpers.ts';
import { createDockerDriver } from './docker-driver.ts';
import * as rec from './recorded-answers.ts';
import { startRecordedEngine } from './recorded-engine.ts';
import { dockerHostRecord } from './test-engine.ts';

/** What the local volume driver answers on a file system without project quota. */
const NO_QUOTA = { status: 500, json: { message: 'quota size requested but no quota support' } };

describe('docker driver: the data volume, against recorded engine answers', () => {
  let engine: Engine;
  const driver = () =>
    createDockerDriver(
      dockerHostRecord(
        {
          connection: 'socket',
          socketPath: engine.socketPath,
          gpus: { model: 'A100', memoryGb: 80, count: 8 },
        },
        { nvidiaRuntime: false },
      ),
    );
  const withVolume = { ...spec, dataVolume: { name: 'gpu-data-77', mountPath: DATA_MOUNT_PATH, sizeGb: 50 } };
  const volumeCreates = () =>
    engine
      .sent('POST', /^\/volumes\/create$/)
      .map((r) => r.body as { DriverOpts?: Record<string, string>; Labels: Record<string, string> });

  beforeAll(async () => {
    engine = await startRecordedEngine();
  });
  afterAll(() => engine.close());
  beforeEach(() => {
    engine.reset();
    engine.on('POST', /^\/containers\/create$/, { status: 201, json: rec.CREATED });
    engine.on('POST', /^\/networks\/create$/, { status: 201, json: rec.NETWORK_CREATED });
    engine.on('GET', /^\/volumes\/gpu-data-77$/, {
      status: 404,
      json: { message: 'get gpu-data-77: no such volume' },
    });
    engine.on('POST', /^\/volumes\/create$/, { status: 201, json: { Name: 'gpu-data-77' } });
  });

  it('makes the volume with its size and labels, and mounts it at /root/data', async () => {
    await driver().create(withVolume);
    const [made] = volumeCreates();
    expect(made).toMatchObject({ Name: 'gpu-data-77', Driver: 'local', DriverOpts: { size: '50G' } });
    expect(made?.Labels[LABELS.instanceId]).toBe('77');
    expect(made?.Labels[LABELS.sizeGb]).toBe('50');
    const [body] = engine.sent('POST', /^\/containers\/create$/).map((r) => r.body as CreateBody);
    expect(body?.HostConfig.Mounts).toEqual([
      { Type: 'volume', Source: 'gpu-data-77', Target: '/root/data' },
    ]);
  });

  it('records the size without enforcing it where the file system has no quota', async () => {
    engine.on('POST', /^\/volumes\/create$/, NO_QUOTA, { status: 201, json: { Name: 'gpu-data-77' } });
    await driver().create(withVolume);
    const [first, second] = volumeCreates();
    expect(first?.DriverOpts).toEqual({ size: '50G' });
    expect(second?.DriverOpts).toBeUndefined();
    expect(second?.Labels[LABELS.sizeGb]).toBe('50');
  });

  it("reuses the instance's own volume (a recreate) and never another instance's", async () => {
    const labelled = (instanceId: string) => ({
      status: 200,
      json: { Name: 'gpu-data-77', Labels: { [LABELS.managed]: 'true', [LABELS.instanceId]: instanceId } },
    });
    engine.on('GET', /^\/volumes\/gpu-data-77$/, labelled('77'));
    await driver().create(withVolume);
    expect(volumeCreates()).toHaveLength(0);
    engine.on('GET', /^\/volumes\/gpu-data-77$/, labelled('78'));
    await expect(driver().create(withVolume)).rejects.toBeInstanceOf(ContainerConflictError);
  });
});
