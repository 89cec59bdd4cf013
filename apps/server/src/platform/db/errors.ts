/**
 * PostgreSQL's unique_violation (SQLSTATE 23505), as PGlite and node-postgres raise it: on the
 * error itself, or on its `cause` when drizzle wraps the driver's error in its own.
 */
export const isUniqueViolation = (e: unknown): boolean => {
  const err = e as { code?: string; cause?: { code?: string } } | null | undefined;
  return err?.code === '23505' || err?.cause?.code === '23505';
};
