import { afterAll, beforeAll } from 'vitest';

/** Runs the enclosing describe's tests in a browser whose zone is `zone`, then restores the zone. */
export function inTimeZone(zone: string) {
  const saved = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}
