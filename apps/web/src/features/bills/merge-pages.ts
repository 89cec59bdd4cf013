import type { Page } from '@gpu/shared';

/**
 * Page `page` (1-based) of the union of several lists, each already newest first by id and
 * holding at least its first page × size items (or all it has): merged by id, newest first.
 */
export function mergePages<T extends { id: number }>(
  heads: readonly { list: readonly T[]; total: number }[],
  page: number,
  size: number,
): Page<T> {
  const merged = heads.flatMap((h) => h.list).sort((a, b) => b.id - a.id);
  return {
    list: merged.slice((page - 1) * size, page * size),
    total: heads.reduce((n, h) => n + h.total, 0),
    page,
    size,
  };
}
