// A one-character spinner on stderr while the CLI waits for the next event. It draws only on a
// terminal, only after a short pause (fast turns never flicker), and erases itself before anything
// else prints, so it never ends up in the trace.

export interface Spinner {
  start(): void;
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const DELAY_MS = 150;
const FRAME_MS = 80;
const ERASE_LINE = '\r\x1b[K';

const NO_SPINNER: Spinner = { start() {}, stop() {} };

export function createSpinner(stream: NodeJS.WriteStream): Spinner {
  if (!stream.isTTY) return NO_SPINNER;
  let delay: NodeJS.Timeout | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let frame = 0;
  const draw = (): void => {
    stream.write(`${ERASE_LINE}${FRAMES[frame % FRAMES.length]}`);
    frame++;
  };
  return {
    start() {
      if (delay || ticker) return;
      delay = setTimeout(() => {
        delay = undefined;
        draw();
        ticker = setInterval(draw, FRAME_MS).unref();
      }, DELAY_MS).unref();
    },
    stop() {
      clearTimeout(delay);
      delay = undefined;
      if (ticker) {
        clearInterval(ticker);
        ticker = undefined;
        stream.write(ERASE_LINE);
      }
    },
  };
}
