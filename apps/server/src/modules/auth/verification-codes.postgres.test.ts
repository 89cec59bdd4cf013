import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { verificationCodes } from './auth.tables.ts';

/**
 * Code sends racing on PostgreSQL (DESIGN §8: one send per phone per 60 s, daily caps): the
 * cooldown and the caps are checked and the code stored under the phone's and the address's
 * locks, so truly concurrent sends cannot all pass the check before any of them stored its code.
 */
describe.runIf(Boolean(process.env.DATABASE_URL))(
  'verification codes under concurrent sends (PostgreSQL)',
  () => {
    let t: Awaited<ReturnType<typeof createTestApp>>;
    beforeAll(async () => {
      t = await createTestApp({ demo: false });
    });
    afterAll(() => t.close());

    const send = (phone: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/send-verification-code',
        remoteAddress: ip,
        payload: { phone, codeType: 'REGISTER' },
      });

    it('sends one code to a phone however many ask at once; the rest wait out the cooldown', async () => {
      const phone = '13700000001';
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(phone, `10.0.0.${i + 1}`)));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 429)).toHaveLength(11);
      expect(await t.db.$count(verificationCodes, eq(verificationCodes.phone, phone))).toBe(1);
    });

    it("keeps an address's daily cap when it asks for many phones at once", async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => send(`1380000${String(i).padStart(4, '0')}`, '10.9.9.9')),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(30);
      expect(await t.db.$count(verificationCodes, eq(verificationCodes.ip, '10.9.9.9'))).toBe(30);
    });
  },
);
