/** `s` with LIKE's wildcards (and the escape itself) escaped: matched as typed. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** A LIKE pattern matching text that contains `s` as typed. */
export const containing = (s: string) => `%${escapeLike(s)}%`;
