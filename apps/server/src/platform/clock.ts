/** Time is a dependency so tests can fix it (DESIGN §2). */
export interface Clock {
  now(): Date;
}

/**
 * The clock's one method on its own: what deps records that need only the time take as `now`
 * (the container hands every feature the same clock, `() => clock.now()`). New deps take
 * `clock: Clock`; this names the older shape so both stay one type.
 */
export type Now = Clock['now'];

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(
  start: Date | string,
): Clock & { set(t: Date | string): void; advance(ms: number): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (v) => {
      t = new Date(v).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
