import { type Balance, unitsToYuan } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../app/db/client.ts';
import { accounts } from './billing.tables.ts';

export async function getBalance({ db }: { db: Db }, userId: number): Promise<Balance> {
  const [a] = await db.select().from(accounts).where(eq(accounts.userId, userId)).limit(1);
  const available = a?.available ?? 0;
  const frozen = a?.frozen ?? 0;
  return {
    available: unitsToYuan(available),
    frozen: unitsToYuan(frozen),
    total: unitsToYuan(available + frozen),
  };
}
