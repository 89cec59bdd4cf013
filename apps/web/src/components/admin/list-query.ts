import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';

/** What every paged admin list sends: the page (1-based) and its size. */
export interface PageQuery {
  page: number;
  size: number;
}

/**
 * A paged list's query state. `filter` applies a filter change and goes back to the first page
 * (the old page may not exist under the new filter); `reset` restores the first query.
 */
export function useListQuery<Q extends PageQuery>(first: Q) {
  const [query, setQuery] = useState<Q>(first);
  return {
    query,
    setQuery,
    filter: (patch: Partial<Q>) => setQuery({ ...query, page: 1, ...patch }),
    reset: () => setQuery(first),
  };
}

/**
 * antd Table pagination bound to a page/size query. `firstOnResize` goes back to page 1 when the
 * page size changes (the ops screens do; the others keep antd's page).
 */
export function paging<Q extends PageQuery>(
  query: Q,
  total: number | undefined,
  setQuery: (next: Q) => void,
  { firstOnResize = false, ...rest }: TablePaginationConfig & { firstOnResize?: boolean } = {},
): TablePaginationConfig {
  return {
    current: query.page,
    pageSize: query.size,
    total: total ?? 0,
    ...rest,
    onChange: (page, size) =>
      setQuery({ ...query, page: firstOnResize && size !== query.size ? 1 : page, size }),
  };
}
