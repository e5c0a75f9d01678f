/** Resolves on SIGINT or SIGTERM, or when `stdin` ends (a stdio client hung up). */
export function stopped(watchStdin: boolean): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (watchStdin) process.stdin.once('close', () => resolve()).once('end', () => resolve());
  });
}
