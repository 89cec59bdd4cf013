import * as shared from '@gpu/shared';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';
import { deepFreeze } from './freeze.ts';

describe('deepFreeze', () => {
  it('freezes plain objects, arrays and Map values all the way down; writes then throw', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const value = deepFreeze({ list: [{ n: 1 }], byKey: new Map([['a', { m: [2] }]]), at });
    expect(() => {
      (value.list as { n: number }[]).push({ n: 2 });
    }).toThrow(TypeError);
    expect(() => {
      (value.list[0] as { n: number }).n = 3;
    }).toThrow(TypeError);
    const inner = value.byKey.get('a') as { m: number[] };
    expect(inner.m).toEqual([2]);
    expect(() => {
      inner.m.push(3);
    }).toThrow(TypeError);
    expect(value).toEqual({ list: [{ n: 1 }], byKey: new Map([['a', { m: [2] }]]), at });
    // A Date is no plain object: it stays usable as one.
    expect(value.at.getTime()).toBe(at.getTime());
  });
});

describe('the shared constants of a running server', () => {
  it('are frozen all the way down: no request can change them for the next', async () => {
    const t = await createTestApp({ demo: false });
    try {
      const plain = Object.entries(shared).filter(
        ([, v]) =>
          v !== null &&
          typeof v === 'object' &&
          (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype),
      );
      expect(plain.length).toBeGreaterThan(30);
      const open = plain.filter(([, v]) => !Object.isFrozen(v)).map(([k]) => k);
      expect(open).toEqual([]);
      expect(Object.isFrozen(shared.DEFAULT_TENANT_CONFIG.theme)).toBe(true);
      expect(() => {
        (shared.BILLING_TYPES as unknown as string[]).push('yearly');
      }).toThrow(TypeError);
    } finally {
      await t.close();
    }
  });
});
