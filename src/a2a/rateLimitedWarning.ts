// A warning that a caller can trigger at will (a fuzzer sending a bad header on every request)
// must not flood the log: the first goes out at once, then at most one per interval, counting the
// ones left out in between.

export type Warn = (line: string) => void;

export const warnOnStderr: Warn = (line) => void process.stderr.write(`${line}\n`);

export const WARNING_INTERVAL_MS = 60_000;

export function rateLimitedWarning(write: Warn, intervalMs: number = WARNING_INTERVAL_MS, now: () => number = Date.now): Warn {
  let lastAt = -Infinity;
  let leftOut = 0;
  return (line) => {
    const at = now();
    if (at - lastAt < intervalMs) return void leftOut++;
    write(leftOut === 0 ? line : `${line} (${leftOut} more like it in the last ${Math.round((at - lastAt) / 1000)} s)`);
    lastAt = at;
    leftOut = 0;
  };
}
