/**
 * The requests this process is answering right now. Background work that may wait (instance
 * jobs after a create) yields to them: the jobs' user already has an answer, while a burst of
 * creates would otherwise share two cores with as many provisioning jobs (issue 15).
 */
export interface RequestLoad {
  /** Requests received and not yet closed (answered, or the client gone). */
  readonly active: number;
  begin(): void;
  end(): void;
  /** Calls `fn` once, as soon as no request is in flight (at once if none is). */
  whenIdle(fn: () => void): void;
  /** Runs `fn` with this request not counted: a long-poll that only waits holds nothing back. */
  idleWhile<T>(fn: () => Promise<T>): Promise<T>;
}

export function createRequestLoad(): RequestLoad {
  let active = 0;
  let waiting: (() => void)[] = [];
  const begin = () => {
    active++;
  };
  const end = () => {
    active = Math.max(0, active - 1);
    if (active > 0 || waiting.length === 0) return;
    const ready = waiting;
    waiting = [];
    for (const fn of ready) fn();
  };
  return {
    get active() {
      return active;
    },
    begin,
    end,
    whenIdle(fn) {
      if (active === 0) fn();
      else waiting.push(fn);
    },
    async idleWhile(fn) {
      end();
      try {
        return await fn();
      } finally {
        begin();
      }
    },
  };
}
