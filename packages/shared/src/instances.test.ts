import { describe, expect, it } from 'vitest';
import {
  createInstanceRequestSchema,
  defaultInstanceName,
  filterInstanceName,
  instanceMessages,
} from './instances.ts';

const base = { machineId: 1, instanceName: 'my-box-1', image: 'img', gpuAmount: 1, billingType: 'hourly' };
const msg = (patch: object) => {
  const r = createInstanceRequestSchema.safeParse({ ...base, ...patch });
  return r.success ? null : r.error.issues[0]?.message;
};

describe('instance name', () => {
  it.each([
    ['', instanceMessages.nameRequired],
    ['-abc', instanceMessages.nameInvalid],
    ['abc-', instanceMessages.nameInvalid],
    ['a_b', instanceMessages.nameInvalid],
    ['中文', instanceMessages.nameInvalid],
    ['a'.repeat(51), instanceMessages.nameTooLong],
  ])('%j → %s', (instanceName, m) => expect(msg({ instanceName })).toBe(m));
  it('accepts letters, digits and inner hyphens up to 50', () => {
    expect(msg({ instanceName: 'a' })).toBeNull();
    expect(msg({ instanceName: `a-${'b'.repeat(48)}` })).toBeNull();
  });
  it('filters live input', () => {
    expect(filterInstanceName('--my__box--1 中')).toBe('mybox-1');
    expect(filterInstanceName('a---b')).toBe('a-b');
    expect(filterInstanceName('x'.repeat(60))).toHaveLength(50);
  });
  it('defaults to the GPU name plus a timestamp', () => {
    expect(defaultInstanceName('RTX 4090', new Date(2026, 10, 22, 8, 5, 9))).toBe('RTX-4090-1122080509');
    expect(msg({ instanceName: defaultInstanceName('A100 80GB', new Date()) })).toBeNull();
  });
});

describe('create request', () => {
  it('limits durations per package type and GPU count 1–8', () => {
    expect(msg({ billingType: 'daily', duration: 7 })).toBe('时长须为1-6天');
    expect(msg({ billingType: 'monthly', duration: 3 })).toBeNull();
    expect(msg({ gpuAmount: 9 })).toBe('GPU数量最多为8');
    expect(msg({ image: '' })).toBe(instanceMessages.imageRequired);
  });
});
