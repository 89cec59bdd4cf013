import type { FormInstance } from 'antd';
import type { z } from 'zod';

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
