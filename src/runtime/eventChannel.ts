// A single-consumer push queue exposed as an async iterable: the turn loop pushes events
// synchronously (no await per event on the hot path) and the face pulls them at its pace.

export interface EventChannel<T> extends AsyncIterable<T> {
  push(value: T): void;
  close(): void;
}

export function createEventChannel<T>(): EventChannel<T> {
  const buffer: T[] = [];
  let head = 0;
  let closed = false;
  let wake: (() => void) | undefined;

  const notify = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };

  return {
    push(value) {
      if (closed) throw new Error('event pushed after the turn ended');
      buffer.push(value);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (head < buffer.length) {
          const value = buffer[head] as T;
          buffer[head++] = undefined as T;
          if (head > 1024 && head * 2 > buffer.length) {
            buffer.splice(0, head);
            head = 0;
          }
          yield value;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
