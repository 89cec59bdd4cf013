import { InvalidArgumentError } from 'commander';

/** A commander parser for a whole number in [min, max]; a bad one is a usage error (exit 1). */
export const int =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (raw: string) => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        `须为 ${min}-${max} 的整数 / must be a whole number from ${min} to ${max}`,
      );
    return n;
  };

/** Repeatable whole-number option (`--port 8080 --port 6006`). */
export const intList =
  (min: number, max: number) =>
  (raw: string, previous: number[] = []) => [...previous, int(min, max)(raw)];

/** A day as YYYY-MM-DD. */
export const day = (raw: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw))
    throw new InvalidArgumentError('须为 YYYY-MM-DD / must be YYYY-MM-DD');
  return raw;
};
