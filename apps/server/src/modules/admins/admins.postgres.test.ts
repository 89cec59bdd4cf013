import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { admins } from '../auth/auth.tables.ts';
import { hashPassword } from '../auth/index.ts';
import { codeAt, enrol } from './admin-totp.test-helpers.ts';

// Real lock contention needs real connections: PGlite runs one transaction at a time.
describe.runIf(process.env.DATABASE_URL)('administrators on PostgreSQL, racing', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ demo: false });
  });
  afterAll(() => t.close());

  it('two super administrators demoting each other at once: one stays super', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await t.adminHeaders(`race-a-${round}`);
      const b = await t.adminHeaders(`race-b-${round}`);
      // Only these two are super in this round.
      await t.db.update(admins).set({ role: 'READONLY' });
      const ids: number[] = [];
      for (const name of [`race-a-${round}`, `race-b-${round}`]) {
        const [row] = await t.db
          .update(admins)
          .set({ role: 'SUPER' })
          .where(eq(admins.username, name))
          .returning();
        ids.push(row?.id as number);
      }
      const [answerA, answerB] = await Promise.all([
        t.app.inject({
          method: 'PUT',
          url: `/api/admin/admins/${ids[1]}`,
          headers: a,
          payload: { role: 'READONLY' },
        }),
        t.app.inject({
          method: 'PUT',
          url: `/api/admin/admins/${ids[0]}`,
          headers: b,
          payload: { role: 'READONLY' },
        }),
      ]);
      // One demotion wins. The other is refused: 409 (it would leave no super administrator) when
      // both are checked before either commits, 403 when its sender was already demoted by then.
      const codes = [answerA.statusCode, answerB.statusCode].sort();
      expect(codes[0]).toBe(200);
      expect([403, 409]).toContain(codes[1]);
      const supers = await t.db
        .select()
        .from(admins)
        .where(and(eq(admins.role, 'SUPER'), eq(admins.status, 'ACTIVE')));
      expect(supers).toHaveLength(1);
    }
  });

  it('one recovery code or one TOTP code sent by four sign-ins at once signs in exactly one', async () => {
    const headers = await t.adminHeaders('race-2fa');
    await t.db
      .update(admins)
      .set({ passwordHash: await hashPassword('Race12345') })
      .where(eq(admins.username, 'race-2fa'));
    const { secret, recoveryCodes } = await enrol(t.app, headers, new Date());
    const challenge = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/auth/login',
          payload: { username: 'race-2fa', password: 'Race12345' },
        })
      ).json().data.challenge as string;
    const race = async (code: string) => {
      const challenges = await Promise.all([challenge(), challenge(), challenge(), challenge()]);
      const answers = await Promise.all(
        challenges.map((c) =>
          t.app.inject({
            method: 'POST',
            url: '/api/admin/auth/totp/verify',
            payload: { challenge: c, code },
          }),
        ),
      );
      return answers.map((a) => a.statusCode).sort();
    };
    expect(await race(recoveryCodes[0] as string)).toEqual([200, 401, 401, 401]);
    // The enrolment used this step's code; wait for the next step so one code is fresh.
    const step = 30_000;
    await new Promise((r) => setTimeout(r, step - (Date.now() % step) + 50));
    expect(await race(codeAt(secret, new Date()))).toEqual([200, 401, 401, 401]);
  }, 60_000);
});
