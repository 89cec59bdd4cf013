import type { Instance, InstanceStatus, Page } from '@gpu/shared';
import { INSTANCE_STATUS_NAMES } from '@gpu/shared/labels';
import type { Api } from './api.ts';
import type { Ctx } from './context.ts';
import { CliError, EXIT } from './exit.ts';
import { type Lang, say } from './messages.ts';
import { startProgress } from './progress.ts';

export const statusName = (s: string, lang: Lang) =>
  lang === 'zh' ? (INSTANCE_STATUS_NAMES[s as InstanceStatus] ?? s) : s;

/** Instances the user holds, newest first (released ones left out unless `all`). */
export const listInstances = (
  api: Api,
  query: { all?: boolean; status?: string; page?: number; size?: number },
) =>
  api.get<Page<Instance>>('/api/gpu/instances', {
    page: query.page ?? 1,
    size: query.size ?? 100,
    status: query.status,
    hideReleased: query.all || query.status ? undefined : '1',
  });

const routeMissing = (err: unknown) => err instanceof CliError && err.extra.errorCode === 'common.not_found';
/** Servers found without the one-instance route: asked through the list from then on. */
const withoutInstanceRoute = new WeakSet<Api>();

/**
 * One instance: GET /api/gpu/instance/:id, long-polled with `waitFor`. A server without that
 * route (404 common.not_found, older than issue 32) is read from the list instead.
 */
export async function getInstance(
  api: Api,
  id: number,
  lang: Lang,
  wait?: { waitFor: InstanceStatus; timeoutS: number },
): Promise<Instance> {
  if (!withoutInstanceRoute.has(api)) {
    try {
      const query = wait ? { waitFor: wait.waitFor, timeout: wait.timeoutS } : undefined;
      return await api.get<Instance>(`/api/gpu/instance/${id}`, query, ((wait?.timeoutS ?? 0) + 30) * 1000);
    } catch (err) {
      if (!routeMissing(err)) throw err;
      withoutInstanceRoute.add(api);
    }
  }
  const found = (await listInstances(api, { all: true })).list.find((i) => i.id === id);
  if (!found)
    throw new CliError(EXIT.notFound, say(lang, 'noSuchInstance'), { errorCode: 'instances.not_found' });
  return found;
}

/** `<instance>` as typed: its number, or its name when exactly one live instance has it. */
export async function resolveInstance(ctx: Ctx, api: Api, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const matches = (await listInstances(api, {})).list.filter((i) => i.name === ref);
  if (matches.length === 1) return (matches[0] as Instance).id;
  if (matches.length > 1) throw new CliError(EXIT.usage, say(ctx.lang, 'ambiguous'));
  throw new CliError(EXIT.notFound, `${say(ctx.lang, 'noSuchInstance')}: ${ref}`, {
    errorCode: 'instances.not_found',
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the instance reaches `target`, by long-polling (60 s a request) with a progress
 * indicator on stderr. FAILED (or RELEASED when not the target) ends the wait with an error;
 * `timeoutS` overall ends it with exit 5.
 */
export async function waitForStatus(
  ctx: Ctx,
  api: Api,
  id: number,
  target: InstanceStatus,
  timeoutS: number,
  /** The status the action answered with, shown until the first poll answers. */
  from?: InstanceStatus,
) {
  const deadline = Date.now() + timeoutS * 1000;
  const progress = startProgress(`${say(ctx.lang, 'waiting')} ${id} → ${statusName(target, ctx.lang)}`);
  if (from) progress.update(statusName(from, ctx.lang));
  try {
    for (;;) {
      const left = Math.ceil((deadline - Date.now()) / 1000);
      const asked = Date.now();
      const inst =
        left > 0
          ? await getInstance(api, id, ctx.lang, { waitFor: target, timeoutS: Math.min(60, left) })
          : await getInstance(api, id, ctx.lang);
      progress.update(statusName(inst.status, ctx.lang));
      if (inst.status === target) return inst;
      if (inst.status === 'FAILED') {
        const why = inst.stopReason ?? inst.warning;
        throw new CliError(EXIT.server, `${say(ctx.lang, 'instanceFailed')}${why ? `: ${why}` : ''}`, {
          errorCode: 'instances.failed',
        });
      }
      if (inst.status === 'RELEASED')
        throw new CliError(EXIT.rejected, say(ctx.lang, 'instanceReleased'), {
          errorCode: 'instances.released',
        });
      if (Date.now() >= deadline)
        throw new CliError(
          EXIT.timeout,
          `${say(ctx.lang, 'waitTimeout')} ${statusName(inst.status, ctx.lang)}`,
          {
            errorCode: 'cli.timeout',
          },
        );
      // A server that answered at once (no long-polling) is asked again a little later.
      const waited = Date.now() - asked;
      if (waited < 1000) await sleep(Math.min(1000 - waited, Math.max(0, deadline - Date.now())));
    }
  } finally {
    progress.stop();
  }
}
