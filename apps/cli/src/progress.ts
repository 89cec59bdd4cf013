const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Progress {
  /** The status now (a new one is printed as a line when stderr is no terminal). */
  update(status: string): void;
  stop(): void;
}

/**
 * A waiting indicator on stderr only: a spinner with the status and the seconds waited on a
 * terminal; otherwise one line per status change, so logs stay readable and stdout stays data.
 */
export function startProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  let status = '';
  if (!stream.isTTY) {
    return {
      update(next) {
        if (next !== status) stream.write(`${label}: ${next}\n`);
        status = next;
      },
      stop() {},
    };
  }
  let frame = 0;
  const draw = () => {
    const secs = Math.round((Date.now() - started) / 1000);
    stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${label}: ${status} (${secs}s)`);
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update(next) {
      status = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[2K');
    },
  };
}
