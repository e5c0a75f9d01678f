/**
 * Work a server command starts and does not wait for (ledger writes, memory distilling): tracked
 * so the command can wait for all of it before closing the database.
 */
export interface BackgroundWork {
  track(work: Promise<void>): void;
  settled(): Promise<void>;
}

export function backgroundWork(): BackgroundWork {
  const active = new Set<Promise<void>>();
  return {
    track(work) {
      const done = work.finally(() => active.delete(done));
      active.add(done);
    },
    settled: async () => void (await Promise.all(active)),
  };
}
