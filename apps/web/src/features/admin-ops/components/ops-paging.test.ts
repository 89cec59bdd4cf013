import { TOTAL_CAP } from '@gpu/shared/envelope';
import { describe, expect, it } from 'vitest';
import { opsPaging } from './use-ops-list';

describe('ops list pagination', () => {
  const q = { page: 3, size: 10 };
  const noop = () => {};
  const total = (page: { total: number; totalCapped?: boolean }) =>
    opsPaging(q, page, noop, false).showTotal?.(page.total, [21, 30]);

  it('says how many rows there are, or that there are more than the server counted', () => {
    expect(total({ total: 42 })).toBe('共 42 条');
    expect(total({ total: TOTAL_CAP, totalCapped: true })).toBe(`超过 ${TOTAL_CAP} 条`);
    // The pager still reaches the last counted page (page 1,000 at 10 a page).
    expect(opsPaging(q, { total: TOTAL_CAP, totalCapped: true }, noop, false).total).toBe(TOTAL_CAP);
  });

  it('shows no total line on phones', () => {
    expect(opsPaging(q, { total: TOTAL_CAP, totalCapped: true }, noop, true).showTotal).toBeUndefined();
  });
});
