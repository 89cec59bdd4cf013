import {
  adminInstanceActionSchema,
  adminInstanceListQuerySchema,
  adminInstanceSchema,
  adminUserListQuerySchema,
  adminUserSchema,
  adminUserStatisticsSchema,
  balanceCheckResultSchema,
  balanceHealthSchema,
  balanceStatsSchema,
  balanceWarningSchema,
  balanceWarningsQuerySchema,
  envelopeSchema,
  forceStopQuerySchema,
  instanceMonitorStatisticsSchema,
  opsDashboardQuerySchema,
  opsDashboardSchema,
  pageSchema,
  runningInstancesQuerySchema,
  statsComputedAt,
} from '@gpu/shared';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { sendFigures } from '../../platform/http/figures-answer.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor, adminTenantScope } from '../auth/index.ts';
import {
  adminInstanceAction,
  listUserInstances,
  listUsers,
  monitorStatistics,
  runningInstances,
  userStatistics,
} from './admin-instances.usecases.ts';
import { balanceHealth, balanceStats, balanceWarnings, runBalanceCheck } from './balance.usecases.ts';
import { opsDashboard } from './dashboard.usecases.ts';
import type { OperationsDeps } from './operations.deps.ts';

const idParams = idParamsSchema('实例编号无效');
const instanceView = envelopeSchema(adminInstanceSchema);

/** SPEC.md §7 Admin: balance monitoring, user management and the instance monitor. */
export async function operationsRoutes(app: AppInstance, deps: OperationsDeps) {
  const admin = { preHandler: app.requireAdmin };
  /**
   * Figures over whole tables, reused for a short while, with the time they were computed: sent
   * as bytes built once per computation (sendFigures).
   */
  const cached = async <T extends object>(
    reply: FastifyReply,
    key: string,
    schema: z.ZodType,
    compute: () => Promise<T>,
  ) => sendFigures(reply, await deps.stats.get(key, compute), schema);
  const dashboardAnswer = envelopeSchema(opsDashboardSchema);
  const balanceStatsAnswer = envelopeSchema(balanceStatsSchema);
  const userStatisticsAnswer = envelopeSchema(adminUserStatisticsSchema);
  const monitorStatisticsAnswer = envelopeSchema(instanceMonitorStatisticsSchema);

  app.get(
    '/api/admin/ops-dashboard',
    {
      ...admin,
      schema: {
        tags: ['admin-dashboard'],
        summary: '运营仪表盘：充值/消费/收入趋势、GPU 占用、创建失败、失联主机、低余额用户',
        querystring: opsDashboardQuerySchema,
        response: { 200: dashboardAnswer },
      },
    },
    (request, reply) =>
      cached(reply, `ops-dashboard:${JSON.stringify(request.query)}`, dashboardAnswer, () =>
        opsDashboard(deps, request.query),
      ),
  );

  // ---- Balance monitoring
  const balance = ['admin-balance'];
  app.get(
    '/api/admin/balance/warnings',
    {
      ...admin,
      schema: {
        tags: balance,
        summary: '余额预警：余额不足以支撑运行中实例 N 小时的用户',
        querystring: balanceWarningsQuerySchema,
        response: {
          200: envelopeSchema(pageSchema(balanceWarningSchema).extend({ computedAt: statsComputedAt })),
        },
      },
    },
    async (request) => ok(await balanceWarnings(deps, request.query)),
  );
  app.get(
    '/api/admin/balance/stats',
    {
      ...admin,
      schema: { tags: balance, summary: '余额统计', response: { 200: balanceStatsAnswer } },
    },
    (_request, reply) => cached(reply, 'balance-stats', balanceStatsAnswer, () => balanceStats(deps)),
  );
  app.get(
    '/api/admin/balance/health',
    {
      ...admin,
      schema: {
        tags: balance,
        summary: '账本一致性：余额合计与账本合计，列出不一致的账户',
        response: { 200: envelopeSchema(balanceHealthSchema) },
      },
    },
    // Its own checkedAt says how old it is; POST /balance/check always checks afresh.
    async () => ok((await deps.stats.get('balance-health', () => balanceHealth(deps))).value),
  );
  app.post(
    '/api/admin/balance/check',
    {
      ...admin,
      schema: {
        tags: balance,
        summary: '手动检查余额与账本（写审计日志）',
        response: { 200: envelopeSchema(balanceCheckResultSchema) },
      },
    },
    async (request) => {
      const result = await runBalanceCheck(deps, adminActor(request));
      return ok(result, result.healthy ? '检查完成：余额与账本一致' : '检查完成：发现余额与账本不一致的账户');
    },
  );

  // ---- User management
  const users = ['admin-users'];
  app.get(
    '/api/admin/user-management/users',
    {
      ...admin,
      schema: {
        tags: users,
        summary: '用户列表（手机号/用户名、租户、注册日期）',
        querystring: adminUserListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(adminUserSchema)) },
      },
    },
    async (request) => ok(await listUsers(deps.instances, request.query, adminTenantScope(request))),
  );
  app.get(
    '/api/admin/user-management/statistics',
    {
      ...admin,
      schema: {
        tags: users,
        summary: '用户统计',
        response: { 200: userStatisticsAnswer },
      },
    },
    (request, reply) => {
      const scope = adminTenantScope(request);
      return cached(reply, `user-statistics:${scope ?? 'all'}`, userStatisticsAnswer, () =>
        userStatistics(deps.instances, scope),
      );
    },
  );
  app.get(
    '/api/admin/user-management/instances',
    {
      ...admin,
      schema: {
        tags: users,
        summary: '用户实例列表',
        querystring: adminInstanceListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(adminInstanceSchema)) },
      },
    },
    async (request) => ok(await listUserInstances(deps.instances, request.query, adminTenantScope(request))),
  );
  const actions = [
    ['power-off', '管理员关机', '实例已关机'],
    ['start', '管理员开机', '实例已开机'],
    ['terminate', '管理员终止实例（释放）', '实例已终止'],
    ['reset-system', '管理员重置系统（需已关机；系统盘清空，数据盘保留）', '正在重置系统'],
  ] as const;
  for (const [name, summary, message] of actions) {
    app.post(
      `/api/admin/user-management/instances/:id/${name}`,
      {
        ...admin,
        schema: {
          tags: users,
          summary: `${summary}（需填写原因，写审计日志并通知用户）`,
          params: idParams,
          body: adminInstanceActionSchema,
          response: { 200: instanceView },
        },
      },
      async (request) =>
        ok(
          await adminInstanceAction(
            deps.instances,
            adminActor(request),
            request.params.id,
            name,
            request.body.reason,
            adminTenantScope(request),
          ),
          message,
        ),
    );
  }

  // ---- Instance monitor
  const monitor = ['admin-instance-monitor'];
  app.get(
    '/api/admin/instance-monitor/running-instances',
    {
      ...admin,
      schema: {
        tags: monitor,
        summary: '运行中的实例（全部主机）',
        querystring: runningInstancesQuerySchema,
        response: { 200: envelopeSchema(pageSchema(adminInstanceSchema)) },
      },
    },
    async (request) => ok(await runningInstances(deps.instances, request.query, adminTenantScope(request))),
  );
  app.post(
    '/api/admin/instance-monitor/force-stop/:id',
    {
      ...admin,
      schema: {
        tags: monitor,
        summary: '强制停止实例（需填写原因，写审计日志并通知用户）',
        params: idParams,
        querystring: forceStopQuerySchema,
        response: { 200: instanceView },
      },
    },
    async (request) =>
      ok(
        await adminInstanceAction(
          deps.instances,
          adminActor(request),
          request.params.id,
          'force-stop',
          request.query.reason,
          adminTenantScope(request),
        ),
        '实例已强制停止，计费已停止',
      ),
  );
  app.get(
    '/api/admin/instance-monitor/statistics',
    {
      ...admin,
      schema: {
        tags: monitor,
        summary: '实例统计：运行中、各型号 GPU 占用、今日收入',
        response: { 200: monitorStatisticsAnswer },
      },
    },
    (request, reply) => {
      const scope = adminTenantScope(request);
      return cached(reply, `monitor-statistics:${scope ?? 'all'}`, monitorStatisticsAnswer, () =>
        monitorStatistics(deps.instances, scope),
      );
    },
  );
}
