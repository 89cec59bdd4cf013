import { describe, expect, it } from 'vitest';
import { USER_QUERY_KEY } from '../../../lib/session';
import { billingKeys, billKeys } from './keys';

describe('money query keys', () => {
  it("sit under the per-user prefix, so sign-out (which removes it) drops one customer's figures", () => {
    for (const key of [
      billingKeys.balance(),
      billKeys.all,
      billKeys.monitor(),
      billKeys.daily(30),
      billKeys.records({}),
    ]) {
      expect(key.slice(0, USER_QUERY_KEY.length)).toEqual([...USER_QUERY_KEY]);
    }
  });
});
