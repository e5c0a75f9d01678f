import { outputClosed } from './outputClosed.js';

/** Resolves on SIGINT or SIGTERM, when stdout or stderr loses its reader, or when `stdin` ends (a stdio client hung up). */
export function stopped(watchStdin: boolean): Promise<void> {
  return new Promise((resolve) => {
    if (outputClosed.aborted) return resolve();
    outputClosed.addEventListener('abort', () => resolve(), { once: true });
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (watchStdin) process.stdin.once('close', () => resolve()).once('end', () => resolve());
  });
}
