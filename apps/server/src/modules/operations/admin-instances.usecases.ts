import {
  type AdminActor,
  type AdminInstance,
  type AdminInstanceActionName,
  type AdminInstanceListQuery,
  type AdminUser,
  type AdminUserListQuery,
  type AdminUserStatistics,
  type AuditAction,
  type InstanceMonitorStatistics,
  type Page,
  type RunningInstancesQuery,
  unitsToYuan,
} from '@gpu/shared';
import { shanghaiDayRange, shanghaiDayStart, shanghaiToday } from '@gpu/shared/time';
import { recordAudit } from '../audit/index.ts';
import type { InstanceDeps } from '../instances/index.ts';
import { powerOff, powerOn, release, resetSystem } from '../instances/index.ts';
import { operationsErrors } from './operations.errors.ts';
import {
  type AdminInstanceRow,
  createOperationsRepository,
  type InstanceFilter,
} from './operations.repository.ts';

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

function toAdminInstance(r: AdminInstanceRow): AdminInstance {
  return {
    id: Number(r.id),
    name: r.name,
    status: r.status,
    userId: Number(r.user_id),
    userPhone: r.user_phone,
    tenantName: r.tenant_name,
    hostId: Number(r.host_id),
    hostName: r.host_name,
    regionName: r.region_name,
    gpuModel: r.gpu_model,
    gpuCount: Number(r.gpu_count),
    gpuIndices: (typeof r.gpu_indices === 'string' ? JSON.parse(r.gpu_indices) : r.gpu_indices) ?? [],
    billingType: r.billing_type,
    hourlyPrice: unitsToYuan(Number(r.hourly_rate)),
    // As the console shows it (instances.models.view.ts): the unit price times the GPUs.
    packagePrice:
      r.package_unit_price === null ? null : unitsToYuan(Number(r.package_unit_price) * Number(r.gpu_count)),
    charged: unitsToYuan(Number(r.charged)),
    image: r.image,
    createdAt: iso(r.created_at) as string,
    runningSince: iso(r.running_since),
    stoppedAt: iso(r.stopped_at),
    expiresAt: iso(r.expires_at),
    stopReason: r.stop_reason,
  };
}

/** A tenant operator's tenant (issue 29): its queries see only that tenant's rows; null: all. */
type Scope = number | null;

async function instancePage(
  deps: InstanceDeps,
  f: InstanceFilter,
  q: { page: number; size: number },
): Promise<Page<AdminInstance>> {
  const { rows, total, totalCapped } = await createOperationsRepository(deps).instances(f, q);
  return {
    list: rows.map(toAdminInstance),
    total,
    page: q.page,
    size: q.size,
    ...(totalCapped && { totalCapped }),
  };
}

/** A tenant operator's own tenant overrides any tenant filter. */
export async function listUsers(
  deps: InstanceDeps,
  q: AdminUserListQuery,
  scope: Scope,
): Promise<Page<AdminUser>> {
  const { rows, total, totalCapped } = await createOperationsRepository(deps).users(
    { keyword: q.keyword, tenantId: scope ?? q.tenantId, ...shanghaiDayRange(q.startDate, q.endDate) },
    q,
    { by: q.sortBy, order: q.order },
  );
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      phone: String(r.phone),
      username: String(r.username),
      tenantId: Number(r.tenant_id),
      tenantName: String(r.tenant_name),
      status: String(r.status),
      available: unitsToYuan(Number(r.available)),
      frozen: unitsToYuan(Number(r.frozen)),
      totalSpend: unitsToYuan(Number(r.spend)),
      instances: Number(r.instances),
      runningInstances: Number(r.running),
      createdAt: iso(r.created_at as string) as string,
      lastLoginAt: iso((r.last_login_at as string | null) ?? null),
    })),
    total,
    page: q.page,
    size: q.size,
    ...(totalCapped && { totalCapped }),
  };
}

export async function userStatistics(deps: InstanceDeps, scope: Scope): Promise<AdminUserStatistics> {
  const t = await createOperationsRepository(deps).userTotals(
    shanghaiDayStart(shanghaiToday(deps.clock.now())),
    scope,
  );
  return {
    totalUsers: t.users,
    newToday: t.newToday,
    activeUsers: t.active,
    disabledUsers: t.disabled,
    totalBalance: unitsToYuan(t.balance),
    totalSpend: unitsToYuan(t.spend),
  };
}

export async function listUserInstances(deps: InstanceDeps, q: AdminInstanceListQuery, scope: Scope) {
  if (q.userId && !(await createOperationsRepository(deps).userExists(q.userId, scope))) {
    throw operationsErrors.userNotFound();
  }
  return instancePage(deps, { ...q, tenantId: scope, status: q.status ? [q.status] : undefined }, q);
}

export const runningInstances = (deps: InstanceDeps, q: RunningInstancesQuery, scope: Scope) =>
  instancePage(deps, { ...q, tenantId: scope, status: ['RUNNING'] }, q);

/** A tenant operator's figures are its tenant's; it gets no GPU occupancy (hosts are the platform's). */
export async function monitorStatistics(
  deps: InstanceDeps,
  scope: Scope,
): Promise<InstanceMonitorStatistics> {
  const c = await createOperationsRepository(deps).instanceCounts(
    shanghaiDayStart(shanghaiToday(deps.clock.now())),
    scope,
  );
  return {
    running: c.byStatus.RUNNING ?? 0,
    byStatus: c.byStatus,
    gpus: c.gpus.map((g) => ({
      model: g.model,
      total: g.total,
      busy: g.occupied,
      reserved: g.reserved,
      idle: g.idle,
    })),
    revenueToday: unitsToYuan(c.revenue),
    hourlyBurn: unitsToYuan(c.burn),
  };
}

type Action = AdminInstanceActionName | 'force-stop';
const AUDIT: Record<Action, { action: AuditAction; after: string; title: string; verb: string }> = {
  'power-off': {
    action: 'instances.admin_power_off',
    after: 'STOPPED',
    title: '实例已被管理员关机',
    verb: '关机',
  },
  'reset-system': {
    action: 'instances.admin_reset',
    after: 'STOPPED',
    title: '实例系统已被管理员重置',
    verb: '重置系统（系统盘已恢复为镜像初始状态，数据盘保留）',
  },
  'force-stop': {
    action: 'instances.force_stop',
    after: 'STOPPED',
    title: '实例已被管理员强制停止',
    verb: '强制停止',
  },
  start: { action: 'instances.admin_start', after: 'RUNNING', title: '实例已被管理员开机', verb: '开机' },
  terminate: {
    action: 'instances.admin_terminate',
    after: 'RELEASED',
    title: '实例已被管理员终止',
    verb: '终止并释放',
  },
};

/**
 * An admin's power off / force stop / start / terminate of any user's instance: the same
 * lifecycle as the owner's (the driver call is a job after commit; the answer is the instance
 * in its transitional state), its audit row in the transaction that starts the transition, and
 * a notice in the owner's console written by the job once it is done.
 */
export async function adminInstanceAction(
  deps: InstanceDeps,
  actor: AdminActor,
  id: number,
  action: Action,
  reason: string,
  scope: Scope,
) {
  // Another tenant's instance is "not found" to a tenant operator, and nothing happens to it.
  if (scope !== null) await adminInstance(deps, id, scope);
  const a = AUDIT[action];
  const who = { kind: 'admin' as const, id: actor.adminId };
  const onBegin = (tx: Parameters<typeof recordAudit>[0], inst: { status: string; userId: number }) =>
    recordAudit(tx, actor, a.action, `instance:${id}`, {
      reason,
      userId: inst.userId,
      before: { status: inst.status },
      after: { status: a.after },
    });
  // The owner is told once the job has done it (written with the end state, exactly once).
  const notice = (inst: { name: string }) => ({
    title: a.title,
    body: `您的实例「${inst.name}」已被管理员${a.verb}，原因：${reason}`,
  });
  const opts = { onBegin, note: reason, notice };
  const started =
    action === 'start'
      ? await powerOn(deps, id, who, opts)
      : action === 'terminate'
        ? await release(deps, id, who, `管理员终止实例：${reason}`, opts)
        : action === 'reset-system'
          ? await resetSystem(deps, id, who, {}, opts)
          : await powerOff(deps, id, who, 'admin', opts);
  // The state this request set, not wherever its job has got to since.
  return { ...(await adminInstance(deps, id)), status: started.status };
}

export async function adminInstance(
  deps: InstanceDeps,
  id: number,
  scope: Scope = null,
): Promise<AdminInstance> {
  const [row] = (
    await createOperationsRepository(deps).instances({ id, tenantId: scope }, { page: 1, size: 1 })
  ).rows;
  if (!row) throw operationsErrors.instanceNotFound();
  return toAdminInstance(row);
}
