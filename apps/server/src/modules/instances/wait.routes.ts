import {
  envelopeSchema,
  INSTANCE_STATUSES,
  type InstanceStatus,
  idSchema,
  instanceSchema,
} from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { RequestLoad } from '../../platform/request-load.ts';
import type { InstanceWithPlace } from './instances.repository.ts';

/** The longest a long-poll waits, in seconds; a client asks again for longer. */
export const WAIT_MAX_S = 60;
/** How often a waiting request looks at the instance again. */
const POLL_MS = 1_000;
/** States no waiting ends: nothing follows them but what the owner does next. */
const SETTLED: readonly InstanceStatus[] = ['RELEASED', 'FAILED'];

const query = z.object({
  waitFor: z
    .enum(INSTANCE_STATUSES, { message: `waitFor 只能是 ${INSTANCE_STATUSES.join('、')} 之一` })
    .optional(),
  timeout: z.coerce
    .number({ message: 'timeout 须为秒数' })
    .int('timeout 须为整数秒')
    .min(1, 'timeout 最少1秒')
    .max(WAIT_MAX_S, `timeout 最多${WAIT_MAX_S}秒`)
    .default(30),
});

/**
 * One instance of the caller (issue 32), and long-polling: with `waitFor` the answer comes when
 * the instance reaches that status, ends up FAILED or RELEASED, or `timeout` seconds pass,
 * whichever is first; it is always the instance as it then is, so a script compares `status`.
 * A waiting request is not counted as load (background jobs do not hold back for it), stops
 * looking when its client goes, and ends when the server closes.
 */
export async function instanceWaitRoutes(
  app: AppInstance,
  ctx: {
    requests: RequestLoad;
    owned: (r: FastifyRequest, id: number) => Promise<InstanceWithPlace>;
    toView: (inst: InstanceWithPlace) => z.infer<typeof instanceSchema>;
  },
) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.get(
    '/api/gpu/instance/:uuid',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['instances'],
        summary: '实例详情（可等待状态：waitFor 与 timeout 秒）',
        params: z.object({ uuid: idSchema('实例编号无效') }),
        querystring: query,
        response: { 200: envelopeSchema(instanceSchema) },
      },
    },
    async (request) => {
      const { uuid } = request.params;
      const { waitFor, timeout } = request.query;
      let inst = await ctx.owned(request, uuid);
      const done = () =>
        !waitFor || inst.status === waitFor || SETTLED.includes(inst.status as InstanceStatus);
      if (!done()) {
        const deadline = performance.now() + timeout * 1000;
        let gone = false;
        request.raw.once('close', () => {
          gone = true;
        });
        await ctx.requests.idleWhile(async () => {
          while (!done() && !gone && !closing && performance.now() < deadline) {
            await new Promise((r) =>
              setTimeout(r, Math.min(POLL_MS, Math.max(0, deadline - performance.now()))),
            );
            inst = await ctx.owned(request, uuid);
          }
        });
      }
      return ok(ctx.toView(inst));
    },
  );
}
