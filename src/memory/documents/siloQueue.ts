// Runs one silo's document operations one at a time, in call order. A model may call several
// memory tools in parallel, and a write reads then rewrites the bundle's log.md and index.md: two
// at once would lose a log line. Different silos never wait for each other.

export type SiloQueue = <T>(silo: string, task: () => Promise<T>) => Promise<T>;

export function createSiloQueue(): SiloQueue {
  const tails = new Map<string, Promise<void>>();
  return <T>(silo: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(silo) ?? Promise.resolve();
    const result = previous.then(task);
    // The tail only orders the next task; the caller hears about failures through `result`.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(silo, tail);
    void tail.then(() => {
      if (tails.get(silo) === tail) tails.delete(silo);
    });
    return result;
  };
}
