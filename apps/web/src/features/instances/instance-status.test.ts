import type { Instance } from '@gpu/shared/instances';
import { INSTANCE_STATUSES, type InstanceStatus } from '@gpu/shared/labels';
import { describe, expect, it } from 'vitest';
import { t } from '../../locales/zh-CN';
import {
  allowedActions,
  instanceNotice,
  isTransitional,
  POLL_FAST_MS,
  POLL_SLOW_MS,
  pollInterval,
  STATUS_META,
} from './instance-status';

const NOW = new Date('2025-06-01T12:00:00+08:00');
const inst = (over: Partial<Instance> = {}) => ({
  status: 'RUNNING' as InstanceStatus,
  billingType: 'hourly' as Instance['billingType'],
  expiresAt: null as string | null,
  warning: null as string | null,
  releaseAt: null as string | null,
  ...over,
});

describe('status tags', () => {
  it('names every state in Chinese and colours it', () => {
    expect(INSTANCE_STATUSES.map((s) => t.instances.status[s])).toEqual([
      '创建中',
      '运行中',
      '关机中',
      '已关机',
      '开机中',
      '释放中',
      '已释放',
      '重置中',
      '保存镜像中',
      '创建失败',
    ]);
    expect(STATUS_META.RUNNING.color).toBe('success');
    expect(STATUS_META.FAILED.color).toBe('error');
    expect(STATUS_META.STOPPING.color).toBe('processing');
  });
  it('marks the states with a driver call in flight as transitional', () => {
    expect(INSTANCE_STATUSES.filter(isTransitional)).toEqual([
      'CREATING',
      'STOPPING',
      'STARTING',
      'RELEASING',
      'RESETTING',
      'SAVING_IMAGE',
    ]);
  });
});

describe('allowed actions', () => {
  const table: [InstanceStatus, string[]][] = [
    ['CREATING', []],
    ['RUNNING', ['powerOff', 'release']],
    ['STOPPING', []],
    ['STOPPED', ['powerOn', 'release']],
    ['STARTING', []],
    ['RELEASING', []],
    ['RELEASED', []],
    ['RESETTING', []],
    ['SAVING_IMAGE', []],
    ['FAILED', []],
  ];
  for (const [status, expected] of table) {
    it(`pay-as-you-go ${status}: ${expected.join(', ') || 'none'}`, () => {
      const allowed = allowedActions(inst({ status }), NOW);
      expect(Object.keys(allowed).filter((k) => allowed[k as keyof typeof allowed])).toEqual(expected);
    });
  }
  it('lets packages renew unless released, failed, releasing or creating', () => {
    const renew = (status: InstanceStatus) =>
      allowedActions(inst({ status, billingType: 'daily', expiresAt: '2025-06-02T12:00:00+08:00' }), NOW)
        .renew;
    // A reset touches neither the package nor its time: renewal stays open (as the server has it).
    expect(INSTANCE_STATUSES.filter(renew)).toEqual([
      'RUNNING',
      'STOPPING',
      'STOPPED',
      'STARTING',
      'RESETTING',
      'SAVING_IMAGE',
    ]);
    expect(allowedActions(inst({ status: 'RUNNING' }), NOW).renew).toBe(false);
  });
  it('does not power on an expired package (renew first)', () => {
    const expired = inst({
      status: 'STOPPED',
      billingType: 'weekly',
      expiresAt: '2025-06-01T11:59:00+08:00',
    });
    expect(allowedActions(expired, NOW)).toEqual({
      powerOff: false,
      powerOn: false,
      release: true,
      renew: true,
    });
    const current = { ...expired, expiresAt: '2025-06-01T12:01:00+08:00' };
    expect(allowedActions(current, NOW).powerOn).toBe(true);
  });
});

describe('poll interval', () => {
  it('is 2 s while any instance is in transition, else 15 s', () => {
    expect(POLL_FAST_MS).toBe(2_000);
    expect(POLL_SLOW_MS).toBe(15_000);
    expect(pollInterval(undefined)).toBe(15_000);
    expect(pollInterval([])).toBe(15_000);
    expect(pollInterval([{ status: 'RUNNING' }, { status: 'STOPPED' }, { status: 'RELEASED' }])).toBe(15_000);
    for (const s of ['CREATING', 'STOPPING', 'STARTING', 'RELEASING'] as const) {
      expect(pollInterval([{ status: 'RUNNING' }, { status: s }])).toBe(2_000);
    }
  });
});

describe('notices', () => {
  it('puts the server warning first (arrears stop is an error)', () => {
    const w = '余额不足，系统已自动关机';
    expect(instanceNotice(inst({ status: 'STOPPED', warning: w }), NOW)).toEqual({
      level: 'error',
      kind: 'server',
      text: w,
    });
    expect(instanceNotice(inst({ warning: w }), NOW)?.level).toBe('warning');
  });
  it('warns of a package running out soon (3 h daily, 1 day weekly, 3 days monthly)', () => {
    const daily = inst({ billingType: 'daily', expiresAt: '2025-06-01T14:30:00+08:00' });
    expect(instanceNotice(daily, NOW)).toEqual({ level: 'warning', kind: 'expiring', at: daily.expiresAt });
    // a daily package bought just now is not "expiring"
    expect(instanceNotice({ ...daily, expiresAt: '2025-06-02T12:00:00+08:00' }, NOW)).toBeNull();
    const weekly = inst({ billingType: 'weekly', expiresAt: '2025-06-02T11:00:00+08:00' });
    expect(instanceNotice(weekly, NOW)?.kind).toBe('expiring');
    expect(instanceNotice({ ...weekly, expiresAt: '2025-06-02T13:00:00+08:00' }, NOW)).toBeNull();
    const monthly = inst({ billingType: 'monthly', expiresAt: '2025-06-04T11:00:00+08:00' });
    expect(instanceNotice(monthly, NOW)?.kind).toBe('expiring');
    // expired, or pay-as-you-go: no expiry notice
    expect(instanceNotice({ ...daily, expiresAt: '2025-06-01T11:00:00+08:00' }, NOW)).toBeNull();
    expect(instanceNotice(inst({ expiresAt: '2025-06-01T12:30:00+08:00' }), NOW)).toBeNull();
  });
  it('tells when a stopped instance will be released', () => {
    const at = '2025-06-15T12:00:00.000Z';
    expect(instanceNotice(inst({ status: 'STOPPED', releaseAt: at }), NOW)).toEqual({
      level: 'info',
      kind: 'release',
      at,
    });
  });
  it('says nothing about released or failed instances', () => {
    expect(instanceNotice(inst({ status: 'RELEASED', warning: 'x' }), NOW)).toBeNull();
    expect(instanceNotice(inst({ status: 'FAILED', warning: 'x' }), NOW)).toBeNull();
  });
});
