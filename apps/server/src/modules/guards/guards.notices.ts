import { formatYuan, unitsToYuan } from '@gpu/shared';
import type { IdleSettings } from '@gpu/shared/guards';
import type { NotificationEvent } from '@gpu/shared/notifications';
import { formatTime } from '@gpu/shared/time';

/** A guard's notice: texts for the message centre, the event and key that write it once. */
export interface GuardNotice {
  event: NotificationEvent;
  dedupeKey: string;
  title: string;
  body: string;
  params: Record<string, unknown>;
}

type Inst = { id: number; name: string };
const yuan = (units: number) => `¥${formatYuan(unitsToYuan(units))}`;
const hhmm = (at: Date) => formatTime(at, 'YYYY-MM-DD HH:mm');
const ms = (at: Date) => at.getTime();

/** Why a guard powers off: the instances module's stop reason key, and the note after it. */
export type GuardStop = { why: 'idle' | 'scheduled' | 'cap'; note: string; notice: GuardNotice };

export const idleWarning = (i: Inst, s: IdleSettings, shutdownAt: Date, now: Date): GuardNotice => ({
  event: 'idle_shutdown_warning',
  dedupeKey: `idle_shutdown_warning:${i.id}:${ms(now)}`,
  title: '实例即将因GPU空闲自动关机',
  body: `实例「${i.name}」的GPU利用率已连续${s.idleMinutes - s.warnMinutes}分钟低于${s.thresholdPercent}%，将于${hhmm(shutdownAt)}自动关机。如需继续使用，请在控制台点击“保持运行”。`,
  params: { instanceId: i.id, shutdownAt: shutdownAt.toISOString(), thresholdPercent: s.thresholdPercent },
});

export const idleStop = (i: Inst, s: IdleSettings, runningSince: Date): GuardStop => ({
  why: 'idle',
  note: `GPU利用率连续${s.idleMinutes}分钟低于${s.thresholdPercent}%`,
  notice: {
    event: 'idle_shutdown',
    dedupeKey: `idle_shutdown:${i.id}:${ms(runningSince)}`,
    title: '实例已因GPU空闲自动关机',
    body: `实例「${i.name}」的GPU利用率连续${s.idleMinutes}分钟低于${s.thresholdPercent}%，系统已自动关机，停止计费。`,
    params: { instanceId: i.id, idleMinutes: s.idleMinutes, thresholdPercent: s.thresholdPercent },
  },
});

export const scheduleWarning = (i: Inst, due: Date): GuardNotice => ({
  event: 'scheduled_shutdown_warning',
  dedupeKey: `scheduled_shutdown_warning:${i.id}:${ms(due)}`,
  title: '实例即将定时关机',
  body: `实例「${i.name}」将于${hhmm(due)}定时关机。如需继续运行，请在控制台取消定时关机。`,
  params: { instanceId: i.id, shutdownAt: due.toISOString() },
});

export const scheduleStop = (i: Inst, due: Date): GuardStop => ({
  why: 'scheduled',
  note: `设定时间 ${hhmm(due)}`,
  notice: {
    event: 'scheduled_shutdown',
    dedupeKey: `scheduled_shutdown:${i.id}:${ms(due)}`,
    title: '实例已定时关机',
    body: `实例「${i.name}」已按设定于${hhmm(due)}定时关机。`,
    params: { instanceId: i.id, shutdownAt: due.toISOString() },
  },
});

export const instanceCapWarning = (i: Inst, spent: number, cap: number, runningSince: Date): GuardNotice => ({
  event: 'spending_cap_warning',
  dedupeKey: `spending_cap_warning:${i.id}:${ms(runningSince)}`,
  title: '实例消费即将达到上限',
  body: `实例「${i.name}」本次运行已消费${yuan(spent)}，接近您设置的上限${yuan(cap)}，达到上限时将自动关机。`,
  params: { instanceId: i.id, spent: unitsToYuan(spent), cap: unitsToYuan(cap), scope: 'instance' },
});

export const instanceCapStop = (i: Inst, cap: number, runningSince: Date): GuardStop => ({
  why: 'cap',
  note: `本次运行消费达到${yuan(cap)}`,
  notice: {
    event: 'spending_cap_shutdown',
    dedupeKey: `spending_cap_shutdown:${i.id}:${ms(runningSince)}`,
    title: '实例已达到消费上限自动关机',
    body: `实例「${i.name}」本次运行消费已达到您设置的上限${yuan(cap)}，系统已自动关机。`,
    params: { instanceId: i.id, cap: unitsToYuan(cap), scope: 'instance' },
  },
});

/** An account cap's period: the Shanghai day (YYYY-MM-DD) or month (YYYY-MM). */
export type CapPeriod = { scope: 'day' | 'month'; label: string };
const periodName = (p: CapPeriod) => (p.scope === 'day' ? '今日' : '本月');
const capName = (p: CapPeriod) => (p.scope === 'day' ? '每日消费上限' : '每月消费上限');

export const accountCapWarning = (p: CapPeriod, spent: number, cap: number): GuardNotice => ({
  event: 'spending_cap_warning',
  dedupeKey: `spending_cap_warning:${p.scope}:${p.label}`,
  title: `${periodName(p)}消费即将达到上限`,
  body: `${periodName(p)}按量计费已消费${yuan(spent)}，接近您设置的${capName(p)}${yuan(cap)}，达到上限时按量计费实例将自动关机。`,
  params: { spent: unitsToYuan(spent), cap: unitsToYuan(cap), scope: p.scope, period: p.label },
});

export const accountCapStop = (i: Inst, p: CapPeriod, cap: number): GuardStop => ({
  why: 'cap',
  note: `${capName(p)}${yuan(cap)}`,
  notice: {
    event: 'spending_cap_shutdown',
    dedupeKey: `spending_cap_shutdown:${i.id}:${p.scope}:${p.label}`,
    title: '实例已达到消费上限自动关机',
    body: `${periodName(p)}按量计费消费已达到您设置的${capName(p)}${yuan(cap)}，实例「${i.name}」已自动关机。`,
    params: { instanceId: i.id, cap: unitsToYuan(cap), scope: p.scope, period: p.label },
  },
});
