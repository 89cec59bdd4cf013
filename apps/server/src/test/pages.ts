import { expect } from 'vitest';

/** One page of a list as a test reads it: its total and its rows' ids. */
export type PageRead = (query: string) => Promise<{ total: number; ids: number[] }>;

/**
 * Pages of a 25-row list on both sides of its middle (read from the front, and from the back
 * skipping some), and its last, partial page, each equal to the same slice of `all` (the rows as
 * the general query orders them) with the total (platform/db/paging.ts).
 */
export async function expectPagesFromBothEnds(page: PageRead, all: number[]) {
  expect(all).toHaveLength(25);
  for (const [n, size] of [
    [1, 4],
    [3, 4], // offset 8: read from the front
    [5, 4], // offset 16, past the middle: read from the back, skipping 5
    [6, 3], // from the back, skipping 7
    [7, 4], // the last, partial
    [2, 20],
  ] as const) {
    expect(await page(`page=${n}&size=${size}`), `page ${n} of ${size}`).toEqual({
      total: 25,
      ids: all.slice((n - 1) * size, n * size),
    });
  }
}
