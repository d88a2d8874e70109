// A one-line spinner with elapsed time for long work (the checkpoint's tests), drawn on stderr
// only when it is a terminal; on a pipe nothing is drawn (DESIGN §7).
import type { OutStream } from './fd-stream.js';

export interface Spinner {
  /** Changes the text after the spinner. */
  update(text: string): void;
  /** Erases the line and stops. */
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const INTERVAL_MS = 100;

const NO_SPINNER: Spinner = { update: () => undefined, stop: () => undefined };

/** Starts a spinner on `stream` if it is a TTY; otherwise returns one that draws nothing. */
export function startSpinner(stream: OutStream, text: string, enabled = true): Spinner {
  if (!enabled || !stream.isTTY) return NO_SPINNER;
  const started = Date.now();
  let frame = 0;
  let label = text;
  const draw = () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    const elapsed =
      seconds >= 60
        ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`
        : `${seconds}s`;
    stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${label} ${elapsed}`);
  };
  draw();
  const timer = setInterval(draw, INTERVAL_MS);
  timer.unref();
  return {
    update(next) {
      label = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[K');
    },
  };
}
