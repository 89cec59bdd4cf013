import { Grid, type TablePaginationConfig } from 'antd';
import { useState } from 'react';
import { type PageQuery, paging, useListQuery } from '../../../components/admin/list-query';
import { ta } from '../../../locales/zh-CN.admin';

/**
 * The state of an ops list screen: its query, the search box text (typed but not yet searched),
 * a reset that clears both, and its pagination (page 1 on a new size; compact on phones).
 */
export function useOpsList<Q extends PageQuery>(first: Q) {
  const list = useListQuery(first);
  const [keyword, setKeyword] = useState('');
  const mobile = Grid.useBreakpoint().md === false;
  return {
    ...list,
    keyword,
    setKeyword,
    mobile,
    reset: () => {
      setKeyword('');
      list.reset();
    },
    pagination: (page: Counted | undefined, extra: TablePaginationConfig = {}) =>
      opsPaging(list.query, page, list.setQuery, mobile, extra),
  };
}

/** A page's count: lists over whole large tables stop counting at a cap and say so. */
type Counted = { total: number; totalCapped?: boolean };

/**
 * The ops screens' pagination: page 1 when the size changes, no total line and small pager on
 * phones; "超过 N 条" when the server stopped counting.
 */
export const opsPaging = <Q extends PageQuery>(
  query: Q,
  page: Counted | undefined,
  setQuery: (next: Q) => void,
  mobile: boolean,
  extra: TablePaginationConfig = {},
) =>
  paging(query, page?.total, setQuery, {
    firstOnResize: true,
    showTotal: mobile ? undefined : page?.totalCapped ? ta.adminOps.totalCapped : ta.adminOps.total,
    size: mobile ? 'small' : undefined,
    ...extra,
  });
