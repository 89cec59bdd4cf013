import { describe, expect, it } from 'vitest';
import { dockerSettingsSchema, hostCreateSchema, hostUpdateSchema } from './hosts.ts';

describe('host schemas', () => {
  it('needs TLS for TCP unless a test lab says otherwise, and a host and login for SSH', () => {
    const tcp = dockerSettingsSchema.safeParse({ connection: 'tcp', host: '10.0.0.5' });
    expect(tcp.success).toBe(false);
    expect(tcp.error?.issues[0]?.path).toEqual(['tls']);
    expect(
      dockerSettingsSchema.safeParse({ connection: 'tcp', host: '10.0.0.5', allowInsecureTcp: true }).success,
    ).toBe(true);
    const ssh = dockerSettingsSchema.safeParse({ connection: 'ssh' });
    expect(ssh.error?.issues.map((i) => i.path[0])).toEqual(['host', 'ssh']);
    expect(dockerSettingsSchema.parse({ connection: 'socket' })).toMatchObject({
      bindAddress: '0.0.0.0',
      stopTimeoutS: 10,
    });
  });

  it('fills create defaults but leaves a partial update partial', () => {
    const created = hostCreateSchema.parse({
      name: 'h-1',
      regionId: 1,
      driver: 'simulated',
      sku: { hourlyPrice: 1.5 },
    });
    expect(created).toMatchObject({ portRangeStart: 30_000, portRangeEnd: 30_199, cpuCores: 0 });
    expect(created.sku).toMatchObject({ hourlyPrice: 1.5, cpuPerGpu: 8, listed: true });
    expect(hostUpdateSchema.parse({ sku: { hourlyPrice: 2 } })).toEqual({ sku: { hourlyPrice: 2 } });
    expect(hostUpdateSchema.safeParse({ driver: 'docker' }).success).toBe(false);
  });

  it('keeps prices to four decimals and port pools bounded', () => {
    const base = { name: 'h-1', regionId: 1, driver: 'simulated' };
    expect(hostCreateSchema.safeParse({ ...base, sku: { hourlyPrice: 1.23456 } }).success).toBe(false);
    expect(
      hostCreateSchema.safeParse({ ...base, portRangeStart: 20_000, portRangeEnd: 40_000 }).success,
    ).toBe(false);
  });
});
