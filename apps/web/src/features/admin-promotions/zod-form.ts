import type { FormInstance } from 'antd';
import type { z } from 'zod';
import { ApiError } from '../../lib/api-client';
import { notify } from '../../lib/feedback';
import { ta } from '../../locales/zh-CN.admin';

/** A failed promotions call as a notice: the server's message, else the generic one. */
export const failed = (err: unknown) =>
  void notify('error', err instanceof ApiError ? err.message : ta.adminVoucher.loadFailed);

/**
 * Checks form values with the shared schema the server uses; on failure puts each message on
 * its field (or answers the first one for fields the form has not) and returns null.
 */
export function parseForm<S extends z.ZodType>(
  form: FormInstance,
  schema: S,
  values: unknown,
): { data: z.infer<S> } | { error: string } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  const names = new Set(Object.keys(form.getFieldsValue(true) as object));
  const fields = parsed.error.issues
    .filter((i) => names.has(String(i.path[0])))
    .map((i) => ({ name: String(i.path[0]), errors: [i.message] }));
  form.setFields(fields);
  return { error: parsed.error.issues[0]?.message ?? '' };
}

/**
 * Saves what parseForm checked: its problem as a notice, else `save`, then the `saved` notice and
 * `done`; a failed save is a notice too (the form stays open).
 */
export async function saveChecked<T>(
  parsed: { data: T } | { error: string },
  save: (data: T) => Promise<unknown>,
  saved: string,
  done: () => void,
) {
  if ('error' in parsed) {
    void notify('error', parsed.error);
    return;
  }
  try {
    await save(parsed.data);
    void notify('success', saved);
    done();
  } catch (err) {
    failed(err);
  }
}
