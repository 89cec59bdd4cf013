import { authMessages } from '@gpu/shared/auth';
import type { FormRule } from 'antd';

/** What this file needs of a zod schema (the web app takes zod only through @gpu/shared). */
interface Schema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** The first message the schema gives for field `name` of `values`, or null when it has none. */
export function fieldError(schema: Schema, values: unknown, name: string): string | null {
  const result = schema.safeParse(values);
  if (result.success) return null;
  return result.error.issues.find((issue) => issue.path[0] === name)?.message ?? null;
}

/**
 * An antd Form rule checking field `name` with a shared request schema (packages/shared),
 * parsed over the whole form so cross-field rules (password confirmation) apply too: the form
 * shows exactly the rule and message the server enforces.
 */
export const schemaRule =
  (schema: Schema, name: string): FormRule =>
  ({ getFieldsValue }) => ({
    validator: async () => {
      const message = fieldError(schema, getFieldsValue(true), name);
      if (message) throw new Error(message);
    },
  });

/** Confirmation of the password in field `of`: required and equal (SPEC.md §5). */
export const confirmRule =
  (of: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (typeof value !== 'string' || value === '') throw new Error(authMessages.confirmRequired);
      if (value !== getFieldValue(of)) throw new Error(authMessages.confirmMismatch);
    },
  });
