import { formatTime } from '@gpu/shared/time';
import { createNoticesRepository } from '../../notices/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import type { InstanceRow } from '../instances.repository.ts';
import type { TransitionNotice } from '../instances.tables.ts';
import { createLifecycleNoticesRepository } from './lifecycle-notices.repository.ts';

const DAY = 86_400_000;
/** Days before a package's end and before a stopped instance's release that the owner is told. */
export const NOTICE_LEADS_DAYS = [3, 1] as const;
/** An end passed longer ago than this is not told any more (a first start on old data). */
const LATE_MS = DAY;
const at = (d: Date) => formatTime(d, 'YYYY-MM-DD HH:mm');

/**
 * The lead (days) whose notice is due when `left` ms remain: the nearest lead not yet passed
 * (at 2 days left: 3; at 10 hours: 1), only if the whole span (`span` ms) was longer than it, so a
 * one-day package is not told "one day left" as it starts. Null: none due.
 */
export function dueLead(left: number, span: number): number | null {
  const leads = [...NOTICE_LEADS_DAYS].sort((a, b) => a - b);
  const lead = leads.find((d) => left <= d * DAY);
  return lead !== undefined && span > lead * DAY ? lead : null;
}

/** The owner's notice when metering powers a pay-as-you-go instance off for arrears. */
export const arrearsNotice = (inst: InstanceRow): TransitionNotice => ({
  event: 'arrears_stop',
  title: '余额不足，实例已关机',
  body: `您的按量计费实例「${inst.name}」因账户余额不足已自动关机，充值后可重新开机。`,
  dedupeKey: `arrears_stop:${inst.id}:${inst.runningSince?.getTime() ?? 0}`,
  params: { instanceName: inst.name },
});

/**
 * Packages: "expiring" 3 days and 1 day before the end, "expired" at it. Each notice's dedupe
 * key names the instance, its end and the lead, so every replica's run writes it once and a
 * renewal (a new end) is told again.
 */
export async function runPackageNotices(deps: InstanceDeps) {
  const now = deps.clock.now();
  const maxLead = Math.max(...NOTICE_LEADS_DAYS) * DAY;
  const rows = await createLifecycleNoticesRepository(deps).packagesEnding(
    new Date(now.getTime() - LATE_MS),
    new Date(now.getTime() + maxLead),
  );
  const notices = createNoticesRepository(deps);
  let told = 0;
  for (const r of rows) {
    const end = r.expiresAt as Date;
    const left = end.getTime() - now.getTime();
    const common = { userId: r.userId, instanceId: r.id };
    if (left <= 0) {
      const id = await notices.notify({
        ...common,
        event: 'package_expired',
        title: '包期已到期',
        body: `实例「${r.name}」的包期已于 ${at(end)} 到期，实例已关机，续费后可重新开机。`,
        dedupeKey: `package_expired:${r.id}:${end.getTime()}`,
        params: { instanceName: r.name, expiresAt: end.toISOString() },
      });
      if (id !== null) told++;
      continue;
    }
    const lead = dueLead(left, end.getTime() - r.createdAt.getTime());
    if (lead === null) continue;
    const id = await notices.notify({
      ...common,
      event: 'package_expiring',
      title: '包期即将到期',
      body: `实例「${r.name}」的包期将于 ${at(end)} 到期（约${lead}天后），到期后将自动关机，请及时续费。`,
      dedupeKey: `package_expiring:${r.id}:${end.getTime()}:${lead}`,
      params: { instanceName: r.name, expiresAt: end.toISOString(), daysBefore: lead },
    });
    if (id !== null) told++;
  }
  return { told };
}

/** A stopped instance's "release scheduled" notice 3 days and 1 day before its data is deleted. */
export async function notifyReleaseScheduled(
  deps: InstanceDeps,
  inst: { id: number; userId: number; name: string; stoppedAt: Date },
  releaseAt: Date,
  now: Date,
) {
  const lead = dueLead(releaseAt.getTime() - now.getTime(), deps.retentionDays * DAY);
  if (lead === null) return null;
  return createNoticesRepository(deps).notify({
    userId: inst.userId,
    instanceId: inst.id,
    event: 'release_scheduled',
    title: '实例即将释放',
    body: `实例「${inst.name}」已关机，数据将于 ${at(releaseAt)} 释放并删除（约${lead}天后），请及时开机或备份数据。`,
    dedupeKey: `release_scheduled:${inst.id}:${inst.stoppedAt.getTime()}:${lead}`,
    params: { instanceName: inst.name, releaseAt: releaseAt.toISOString(), daysBefore: lead },
  });
}
