import { Table, type TableProps } from 'antd';

/** A paged list query as TanStack Query returns it for `Page<T>` envelopes. */
interface PagedList<T> {
  data?: { list: T[]; total: number };
  isFetching: boolean;
}

/** An admin list table over a paged query: rows keyed by id, loading while fetching. */
export function PagedTable<T extends object>({ list, ...rest }: { list: PagedList<T> } & TableProps<T>) {
  return (
    <Table<T>
      rowKey="id"
      size="middle"
      loading={list.isFetching}
      dataSource={list.data?.list ?? []}
      {...rest}
    />
  );
}
