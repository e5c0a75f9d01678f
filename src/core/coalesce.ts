// Calls made close together go to the database in one round trip: those of one turn of the event
// loop, and those made while the previous round trip was still out, so a busy process sends fewer,
// larger statements. Each call's promise settles with its round trip (a failure fails every call in
// it). Measured in the dispatch bench (bench/schedulerDispatch.ts): on a loaded machine a firing's
// dispatch cost is the statements it takes, each ~0.4 ms of server CPU beyond its execution, not
// the rows they carry.

/** `flush` gets the calls' items in order and resolves to one result per item. */
export function coalesce<Item, Result = void>(flush: (items: Item[]) => Promise<Result[]>): (item: Item) => Promise<Result> {
  let pending: Array<{ item: Item; done: (result: Result) => void; failed: (error: unknown) => void }> = [];
  let flushing = false;
  const flushPending = async (): Promise<void> => {
    flushing = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        const results = await flush(batch.map(({ item }) => item));
        batch.forEach(({ done }, i) => done(results[i]!));
      } catch (error) {
        for (const { failed } of batch) failed(error);
      }
    }
    flushing = false;
  };
  return (item) =>
    new Promise<Result>((done, failed) => {
      pending.push({ item, done, failed });
      if (pending.length === 1 && !flushing) setImmediate(() => void flushPending());
    });
}
