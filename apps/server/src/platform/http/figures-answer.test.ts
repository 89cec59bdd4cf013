import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAggregateCache } from '../aggregate-cache.ts';
import { sendFigures } from './figures-answer.ts';

/** A reply that keeps what was sent. */
function replyCatcher() {
  const sent: { type?: string; body?: Buffer } = {};
  const reply = {
    type(t: string) {
      sent.type = t;
      return reply;
    },
    send(body: Buffer) {
      sent.body = body;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

const schema = z.object({
  success: z.literal(true),
  code: z.string(),
  message: z.string(),
  data: z.object({ users: z.number().int(), computedAt: z.string() }),
});

describe('reused figures as bytes built once per computation', () => {
  it('sends the same bytes until the figures are computed again, then the new ones', async () => {
    let now = 1_000_000;
    let users = 0;
    const cache = createAggregateCache({ ttlMs: 30_000, now: () => new Date(now) });
    const compute = async () => ({ users: ++users });
    const send = async () => {
      const r = replyCatcher();
      sendFigures(r.reply, await cache.get('k', compute), schema);
      return r.sent;
    };
    await send(); // the first computation's own object
    const a = await send();
    const b = await send();
    expect(a.type).toBe('application/json; charset=utf-8');
    expect(b.body).toBe(a.body); // the very same Buffer: not serialized again
    expect(JSON.parse(String(a.body))).toEqual({
      success: true,
      code: '200',
      message: '成功',
      data: { users: 1, computedAt: new Date(1_000_000).toISOString() },
    });
    now += 31_000;
    await send(); // stale: answered, refreshed behind it
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse(String((await send()).body)).data).toEqual({
      users: 2,
      computedAt: new Date(1_031_000).toISOString(),
    });
  });

  it('checks the figures against the route schema when it builds them', async () => {
    const cache = createAggregateCache({ ttlMs: 30_000, now: () => new Date(0) });
    const figures = await cache.get('bad', async () => ({ users: 1.5 }));
    expect(() => sendFigures(replyCatcher().reply, figures, schema)).toThrow();
  });
});
