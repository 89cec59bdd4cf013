/**
 * Freezes a value that requests share (a cache's entry, a process-wide constant) and everything in
 * it: plain objects, arrays and the values of Maps. A handler that writes to it then throws on its
 * own request (a 500 the hostile-traffic suite finds) instead of changing what every later request
 * of the process sees (issue 26). Dates, Buffers and class instances are left as they are.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (value instanceof Map) {
    for (const v of value.values()) deepFreeze(v);
    return value;
  }
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
