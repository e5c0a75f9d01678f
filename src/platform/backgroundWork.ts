/**
 * Work a face starts and does not wait for (ledger writes, memory distilling): tracked so the
 * platform can wait for all of it before it closes the store.
 */
export interface BackgroundWork {
  track(work: Promise<void>): void;
  /** Resolves once every piece tracked, including pieces tracked meanwhile, has settled; rejects with the first failure. */
  settled(): Promise<void>;
}

export function backgroundWork(): BackgroundWork {
  const active = new Set<Promise<void>>();
  return {
    track(work) {
      const done = work.finally(() => active.delete(done));
      // Reported by settled(), not as an unhandled rejection meanwhile.
      done.catch(() => undefined);
      active.add(done);
    },
    async settled() {
      let failure: { error: unknown } | undefined;
      while (active.size > 0) {
        for (const result of await Promise.allSettled([...active])) {
          if (result.status === 'rejected') failure ??= { error: result.reason };
        }
      }
      if (failure) throw failure.error;
    },
  };
}
