import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { requiresUser, signedInUser } from '../auth/index.ts';
import type { IdempotencyDeps } from './idempotency.deps.ts';
import { idempotencyErrors } from './idempotency.errors.ts';
import { IDEMPOTENCY_KEY_PATTERN, requestHash } from './idempotency.models.ts';
import { claimRequest, completeRequest } from './idempotency.usecases.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function registerIdempotency(app: AppInstance, deps: IdempotencyDeps) {
  app.decorateRequest('idempotency', null);
  /** The handlers `idempotent` made, so a route that names one is not given a second. */
  const made = new WeakSet<Handler>();

  const idempotent = (scope: string): Handler => {
    const handler: Handler = (request, reply) => claim(scope, request, reply);
    made.add(handler);
    return handler;
  };
  app.decorate('idempotent', idempotent);

  // Every customer route that writes takes an Idempotency-Key (issue 32): those that do not name
  // a scope of their own get one of their method and path, after authentication and validation.
  app.addHook('onRoute', (options) => {
    const methods = [options.method].flat().filter((m) => m !== 'GET' && m !== 'HEAD');
    if (methods.length === 0) return;
    if (!requiresUser(app, options)) return;
    const own = [options.preHandler ?? []].flat() as Handler[];
    if (own.some((h) => made.has(h))) return;
    options.preHandler = [...own, idempotent(`${methods.join(',')} ${options.url}`)] as never;
  });

  const claim = async (scope: string, request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) throw idempotencyErrors.badKey();
    const claim = await claimRequest(deps, {
      userId: signedInUser(request).id,
      scope,
      key,
      requestHash: requestHash({ body: request.body, query: request.query, params: request.params }),
    }).catch((err: unknown) => {
      // Still running elsewhere: tells clients a retry with the same key is worth it, and when.
      if (isAppError(err) && err.code === 'idempotency.in_flight') reply.header('retry-after', '1');
      throw err;
    });
    if (claim.run) {
      request.idempotency = { id: claim.id, key };
      return;
    }
    return reply
      .code(claim.status)
      .header('content-type', 'application/json; charset=utf-8')
      .header('idempotent-replayed', 'true')
      .send(claim.body);
  };

  // App-level onSend runs before a route's own onSend hooks, so a replay passes through the
  // same route hooks as the first answer did and leaves identical.
  // A callback hook: answers without a claim (nearly all) pass with no promise (issue 15).
  app.addHook('onSend', (request, reply, payload, done) => {
    const claimed = request.idempotency;
    if (!claimed) return done(null, payload);
    request.idempotency = null;
    const store = async () => {
      if (typeof payload !== 'string') throw new Error('idempotent route answered a non-string payload');
      await completeRequest(deps, claimed.id, reply.statusCode, payload);
    };
    store().then(
      () => done(null, payload),
      (err: unknown) => {
        // The answer still goes out; replays wait, then take over the claim after its lease.
        request.log.error({ err, idempotency: claimed }, 'could not store the idempotent answer');
        done(null, payload);
      },
    );
  });
}
