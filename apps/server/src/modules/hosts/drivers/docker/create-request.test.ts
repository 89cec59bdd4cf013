import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContainerConflictError,
  DriverFailureError,
  GpuUnavailableError,
  HostUnreachableError,
  ImageNotFoundError,
  PortInUseError,
} from '../driver-errors.ts';
import type { HostRecord } from '../host-driver.ts';
import { type CreateBody, type Engine, spec } from './create-request.test-helpers.ts';
import { createDockerDriver } from './docker-driver.ts';
import * as rec from './recorded-answers.ts';
import { startRecordedEngine } from './recorded-engine.ts';
import { dockerHostRecord } from './test-engine.ts';

describe('docker driver requests, against recorded engine answers', () => {
  let engine: Engine;
  const settings = () => ({
    connection: 'socket',
    socketPath: engine.socketPath,
    gpus: { model: 'A100 80GB', memoryGb: 80, count: 8 },
  });
  const driver = (over: Partial<HostRecord> = {}) => createDockerDriver(dockerHostRecord(settings(), over));
  const creates = () => engine.sent('POST', /^\/containers\/create$/).map((r) => r.body as CreateBody);

  beforeAll(async () => {
    engine = await startRecordedEngine();
  });
  afterAll(() => engine.close());
  beforeEach(() => {
    engine.reset();
    engine.on('GET', /^\/info$/, { status: 200, json: rec.INFO_WITHOUT_NVIDIA });
    engine.on('GET', /^\/version$/, { status: 200, json: rec.VERSION });
    engine.on('POST', /^\/containers\/create$/, { status: 201, json: rec.CREATED });
    engine.on('POST', /^\/networks\/create$/, { status: 201, json: rec.NETWORK_CREATED });
    engine.on('DELETE', /^\/networks\/[^/]+$/, { status: 204 });
  });

  it('asks for GPUs by DeviceRequests with device ids (never Count) when the runtime exists', async () => {
    engine.on('GET', /^\/info$/, { status: 200, json: rec.INFO_WITH_NVIDIA });
    const result = await driver().create(spec);
    expect(result).toEqual({ containerId: rec.CREATED.Id, diskLimitEnforced: true });
    const [body] = creates();
    expect(engine.sent('POST', /^\/containers\/create$/)[0]?.query.get('name')).toBe('gpu-inst-77');
    expect(body?.HostConfig.DeviceRequests).toEqual([
      { Driver: 'nvidia', DeviceIDs: ['2', '3'], Capabilities: [['gpu']] },
    ]);
    expect(body?.HostConfig.DeviceRequests?.[0]).not.toHaveProperty('Count');
    expect(body?.Env).toEqual(
      expect.arrayContaining(['ROOT_PASSWORD=Zq8pW3nKx7', 'NVIDIA_VISIBLE_DEVICES=2,3']),
    );
    expect(body?.Image).toBe(spec.image);
    expect(body?.Labels).toMatchObject({
      'io.gpu-platform.managed': 'true',
      'io.gpu-platform.instance-id': '77',
      'io.gpu-platform.user-id': '5',
    });
    expect(body?.HostConfig).toMatchObject({
      NanoCpus: 16e9,
      Memory: 64 * 1024 ** 3,
      Init: true,
      StorageOpt: { size: '80G' },
    });
  });

  it('fences the container off: processes, memory without swap, no new privileges, kept capabilities, its own network', async () => {
    await driver({ nvidiaRuntime: true }).create({ ...spec, pidsLimit: 8192 });
    const [body] = creates() as (CreateBody & { NetworkingConfig?: unknown })[];
    expect(body?.HostConfig).toMatchObject({
      PidsLimit: 8192,
      Memory: 64 * 1024 ** 3,
      MemorySwap: 64 * 1024 ** 3,
      SecurityOpt: ['no-new-privileges'],
      CapDrop: ['ALL'],
      CapAdd: [
        'AUDIT_WRITE',
        'CHOWN',
        'DAC_OVERRIDE',
        'FOWNER',
        'KILL',
        'NET_BIND_SERVICE',
        'SETGID',
        'SETUID',
        'SYS_CHROOT',
      ],
      NetworkMode: 'gpu-inst-77',
    });
    expect(body?.NetworkingConfig).toEqual({ EndpointsConfig: { 'gpu-inst-77': {} } });
    // The network first, named after the container and labelled like it.
    const order = engine.requests.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(order).toEqual(['/networks/create', '/containers/create']);
    expect(engine.sent('POST', /^\/networks\/create$/)[0]?.body).toEqual({
      Name: 'gpu-inst-77',
      Driver: 'bridge',
      CheckDuplicate: true,
      Labels: {
        'io.gpu-platform.managed': 'true',
        'io.gpu-platform.instance-id': '77',
        'io.gpu-platform.host-id': '990001',
        'io.gpu-platform.user-id': '5',
      },
    });
    // Without a limit in the spec, the default one.
    engine.reset();
    engine.on('POST', /^\/networks\/create$/, { status: 201, json: rec.NETWORK_CREATED });
    engine.on('POST', /^\/containers\/create$/, { status: 201, json: rec.CREATED });
    await driver({ nvidiaRuntime: true }).create(spec);
    expect(creates()[0]?.HostConfig.PidsLimit).toBe(4096);
  });

  it('reuses the network made for the same instance before a crash; refuses one that is not its own', async () => {
    engine.on('POST', /^\/networks\/create$/, rec.NETWORK_EXISTS);
    engine.on('GET', /^\/networks\/gpu-inst-77$/, { status: 200, json: rec.NETWORK_OF_77 });
    expect((await driver({ nvidiaRuntime: true }).create(spec)).containerId).toBe(rec.CREATED.Id);
    expect(creates()[0]?.HostConfig.NetworkMode).toBe('gpu-inst-77');

    engine.reset();
    engine.on('POST', /^\/networks\/create$/, rec.NETWORK_EXISTS);
    const labels = { 'io.gpu-platform.managed': 'true', 'io.gpu-platform.instance-id': '78' };
    engine.on('GET', /^\/networks\/gpu-inst-77$/, {
      status: 200,
      json: { ...rec.NETWORK_OF_77, Labels: labels },
    });
    await expect(driver({ nvidiaRuntime: true }).create(spec)).rejects.toBeInstanceOf(ContainerConflictError);
    expect(creates()).toHaveLength(0);
    expect(engine.sent('DELETE', /^\/networks\//)).toHaveLength(0);
  });

  it('says so when the engine has no address left for another network (not a missing container)', async () => {
    engine.on('POST', /^\/networks\/create$/, rec.ADDRESS_POOLS_EXHAUSTED);
    const err = await driver({ nvidiaRuntime: true })
      .create(spec)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverFailureError);
    expect((err as DriverFailureError).message).toBe('主机的容器网络地址已用尽，请选择其他主机或联系管理员');
    expect(creates()).toHaveLength(0);
  });

  it('drops the network it made when the container is refused, but not on a name conflict', async () => {
    engine.on('POST', /^\/containers\/create$/, rec.NO_SUCH_IMAGE);
    await expect(driver({ nvidiaRuntime: true }).create(spec)).rejects.toBeInstanceOf(ImageNotFoundError);
    expect(engine.sent('DELETE', /^\/networks\//).map((r) => r.path)).toEqual(['/networks/gpu-inst-77']);

    engine.reset();
    engine.on('POST', /^\/networks\/create$/, { status: 201, json: rec.NETWORK_CREATED });
    engine.on('POST', /^\/containers\/create$/, rec.NAME_CONFLICT);
    await expect(driver({ nvidiaRuntime: true }).create(spec)).rejects.toBeInstanceOf(ContainerConflictError);
    expect(engine.sent('DELETE', /^\/networks\//)).toHaveLength(0);
  });

  it('maps SSH and JupyterLab to the pool ports, exposed and bound on the bind address', async () => {
    await driver({ nvidiaRuntime: true }).create(spec);
    const [body] = creates();
    expect(body?.ExposedPorts).toEqual({ '22/tcp': {}, '8888/tcp': {} });
    expect(body?.HostConfig.PortBindings).toEqual({
      '22/tcp': [{ HostIp: '0.0.0.0', HostPort: '30010' }],
      '8888/tcp': [{ HostIp: '0.0.0.0', HostPort: '30011' }],
    });
  });

  it('uses only NVIDIA_VISIBLE_DEVICES without the runtime, and trusts the probed fact without asking', async () => {
    await driver({ nvidiaRuntime: false }).create(spec);
    const [body] = creates();
    expect(body?.HostConfig.DeviceRequests).toBeUndefined();
    expect(body?.Env).toContain('NVIDIA_VISIBLE_DEVICES=2,3');
    expect(engine.sent('GET', /^\/info$/)).toHaveLength(0);
  });

  it('hides every GPU from a container that gets none', async () => {
    await driver({ nvidiaRuntime: true }).create({ ...spec, gpuIndices: [] });
    const [body] = creates();
    expect(body?.HostConfig.DeviceRequests).toBeUndefined();
    expect(body?.Env).toContain('NVIDIA_VISIBLE_DEVICES=void');
  });

  it('retries without StorageOpt when the storage driver cannot enforce it, and says so', async () => {
    engine.on('POST', /^\/containers\/create$/, rec.STORAGE_OPT_UNSUPPORTED, {
      status: 201,
      json: rec.CREATED,
    });
    const result = await driver({ nvidiaRuntime: true }).create(spec);
    expect(result).toEqual({ containerId: rec.CREATED.Id, diskLimitEnforced: false });
    const [first, second] = creates();
    expect(first?.HostConfig.StorageOpt).toEqual({ size: '80G' });
    expect(second?.HostConfig.StorageOpt).toBeUndefined();
    expect(second?.HostConfig.DeviceRequests).toEqual(first?.HostConfig.DeviceRequests);
  });

  it('does not try StorageOpt again on a host known not to support it', async () => {
    const result = await driver({ nvidiaRuntime: true, diskLimitSupported: false }).create(spec);
    expect(result.diskLimitEnforced).toBe(false);
    expect(creates()).toHaveLength(1);
    expect(creates()[0]?.HostConfig.StorageOpt).toBeUndefined();
  });

  it('turns the engine refusals into typed errors', async () => {
    engine.on('POST', /^\/containers\/create$/, rec.NO_SUCH_IMAGE);
    await expect(driver({ nvidiaRuntime: true }).create(spec)).rejects.toBeInstanceOf(ImageNotFoundError);
    engine.on('POST', /^\/containers\/create$/, rec.NAME_CONFLICT);
    await expect(driver({ nvidiaRuntime: true }).create(spec)).rejects.toBeInstanceOf(ContainerConflictError);

    const id = rec.CREATED.Id;
    engine.on('POST', /\/start$/, rec.PORT_ALLOCATED);
    const clash = await driver()
      .start(id)
      .catch((e: unknown) => e);
    expect(clash).toBeInstanceOf(PortInUseError);
    expect((clash as PortInUseError).port).toBe(31022);
    engine.on('POST', /\/start$/, rec.ADDRESS_IN_USE);
    expect(
      (
        (await driver()
          .start(id)
          .catch((e: unknown) => e)) as PortInUseError
      ).port,
    ).toBe(31023);
    engine.on('POST', /\/start$/, rec.NO_NVIDIA_DRIVER);
    await expect(driver().start(id)).rejects.toBeInstanceOf(GpuUnavailableError);
    engine.on('POST', /\/start$/, { status: 304 });
    await expect(driver().start(id)).resolves.toBeUndefined();
    engine.on('POST', /\/stop$/, { status: 304 });
    await expect(driver().stop(id)).resolves.toBeUndefined();
  });

  it('reports an engine that does not answer as unreachable', async () => {
    const gone = createDockerDriver(
      dockerHostRecord({ connection: 'socket', socketPath: '/run/no-such-engine.sock' }),
    );
    await expect(gone.create(spec)).rejects.toBeInstanceOf(HostUnreachableError);
    await expect(gone.list()).rejects.toBeInstanceOf(HostUnreachableError);
    expect(await gone.probe()).toMatchObject({ reachable: false });
  });

  it('probes GPUs with a one-shot nvidia-smi container when the runtime exists', async () => {
    engine.on('GET', /^\/info$/, { status: 200, json: rec.INFO_WITH_NVIDIA });
    engine.on('GET', /^\/images\/.+\/json$/, { status: 200, json: { Id: 'sha256:abc' } });
    engine.on('POST', /\/start$/, { status: 204 });
    engine.on('POST', /\/wait$/, { status: 200, json: { StatusCode: 0 } });
    engine.on('GET', /\/logs$/, { status: 200, text: rec.NVIDIA_SMI_OUTPUT });
    engine.on('DELETE', /^\/containers\/[0-9a-f]+$/, { status: 204 });
    const p = await driver().probe();
    expect(p).toMatchObject({
      reachable: true,
      nvidiaRuntime: true,
      gpuSource: 'nvidia-smi',
      driverVersion: '550.127.05',
      cudaVersion: '12.4',
      engineVersion: '20.10.24+dfsg1',
      cpuCores: 128,
    });
    expect(p.gpus).toHaveLength(8);
    expect(p.gpus[7]).toEqual({
      index: 7,
      uuid: 'GPU-5c3a9b8e-4d2f-11ee-8c90-0242ac120007',
      model: 'A100-SXM4-80GB',
      memoryGb: 80,
    });
    const [probeBody] = creates();
    expect(probeBody?.HostConfig.DeviceRequests).toEqual([
      { Driver: 'nvidia', Count: -1, Capabilities: [['gpu', 'utility']] },
    ]);
    expect(engine.sent('DELETE', /^\/containers\//)).toHaveLength(1);
  });

  it('falls back to the declared GPUs, with a warning, when nvidia-smi fails', async () => {
    engine.on('GET', /^\/info$/, { status: 200, json: rec.INFO_WITH_NVIDIA });
    engine.on('GET', /^\/images\/.+\/json$/, { status: 200, json: { Id: 'sha256:abc' } });
    engine.on('POST', /\/start$/, rec.NO_NVIDIA_DRIVER);
    engine.on('DELETE', /^\/containers\/[0-9a-f]+$/, { status: 204 });
    const p = await driver().probe();
    expect(p).toMatchObject({ reachable: true, nvidiaRuntime: true, gpuSource: 'declared' });
    expect(p.gpus).toHaveLength(8);
    expect(p.warnings[0]).toContain('nvidia-smi');
  });
});
