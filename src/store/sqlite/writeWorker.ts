import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

// A thread with its own connection to the database, for the writes that must not cost the event
// loop their time: moving journaled events into SQLite (~75 µs of every persisted turn when it ran
// on the main thread) and WAL checkpoints. The thread runs write jobs, which carry their SQL and
// rows: what to write is decided on the main thread, which can also run the same job itself
// (runWriteJob) when it must not wait.

/** Statements run in order in one IMMEDIATE transaction; then `reads`, whose first rows are the result. */
export interface WriteJob {
  readonly statements: readonly string[];
  /** Named parameters every statement may use (@name): a large value is copied to the thread once. */
  readonly named: Readonly<Record<string, unknown>>;
  readonly runs: ReadonlyArray<readonly [statement: number, params: readonly unknown[]]>;
  readonly reads: ReadonlyArray<readonly [statement: number, params: readonly unknown[]]>;
}

export interface WriteWorker {
  run(job: WriteJob): Promise<unknown[]>;
  /** True once the thread has opened the database: until then a job would wait ~50 ms for it. */
  ready(): boolean;
  /** True once the thread has died: start another. */
  failed(): boolean;
  /**
   * Takes the replies that have arrived without waiting for the event loop: a process whose work
   * resolves in microtasks (a model answering from memory) may not reach it for a long time.
   */
  poll(): void;
  /** A passive WAL checkpoint; a failed one is left to the next request. */
  checkpoint(): void;
  stop(): Promise<void>;
}

// Evaluated rather than loaded from a file so it runs the same from src/ under the tests and from
// dist/; the driver is resolved by the caller because an evaluated worker resolves modules from
// the cwd. Its job loop is runWriteJob's, below.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const replies = workerData.replies;
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('foreign_keys = ON');
replies.postMessage({ ready: true });
const cache = new Map();
const statement = (sql) => cache.get(sql) ?? cache.set(sql, db.prepare(sql)).get(sql);
const runJob = db.transaction((job) => {
  for (const [index, params] of job.runs) statement(job.statements[index]).run(...params, job.named);
  return job.reads.map(([index, params]) => statement(job.statements[index]).get(...params, job.named));
});
parentPort.on('message', (message) => {
  if (message.job === undefined) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or failed this time: the next request retries, and the writer's backstop bounds the WAL.
    }
    return;
  }
  try {
    replies.postMessage({ id: message.id, rows: runJob.immediate(message.job) });
  } catch (error) {
    replies.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type Reply = { ready: true } | { id: number; rows: unknown[] } | { id: number; error: string };

export function startWriteWorker(path: string, busyTimeoutMs: number, synchronous: string): WriteWorker {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // Replies come on a port of their own, which poll() can read synchronously.
  const { port1: replies, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path: resolve(path), busyTimeoutMs, synchronous, replies: port2 }, transferList: [port2] });
  worker.unref();
  const waiting = new Map<number, { resolve(rows: unknown[]): void; reject(error: unknown): void }>();
  let nextId = 0;
  let failure: Error | undefined;
  let ready = false;
  const failed = (): boolean => failure !== undefined;

  const failAll = (error: Error): void => {
    failure = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  const handle = (reply: Reply): void => {
    if ('ready' in reply) {
      ready = true;
      return;
    }
    const caller = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) replies.unref();
    if ('rows' in reply) caller?.resolve(reply.rows);
    else caller?.reject(new Error(reply.error));
  };
  replies.on('message', handle);
  // Keeps the process alive only while a caller waits for a reply (listening refs the port, so
  // this comes after): work still queued when the process ends is journaled, and a checkpoint cut
  // short is safe (SQLite is crash-safe).
  replies.unref();
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`the store's write thread exited (code ${code})`)));

  return {
    run(job) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        replies.ref();
        worker.postMessage({ id, job });
      });
    },
    ready: () => ready && !failed(),
    failed,
    poll() {
      for (let reply = receiveMessageOnPort(replies); reply !== undefined; reply = receiveMessageOnPort(replies)) handle(reply.message as Reply);
    },
    checkpoint() {
      if (!failure) worker.postMessage({});
    },
    async stop() {
      await worker.terminate();
    },
  };
}

type JobRunner = Database.Transaction<(job: WriteJob) => unknown[]>;
const runners = new WeakMap<Database.Database, JobRunner>();

function jobRunner(db: Database.Database): JobRunner {
  const cache = new Map<string, Database.Statement>();
  const statement = (sql: string): Database.Statement => cache.get(sql) ?? cache.set(sql, db.prepare(sql)).get(sql)!;
  return db.transaction((job: WriteJob) => {
    for (const [index, params] of job.runs) statement(job.statements[index]!).run(...params, job.named);
    return job.reads.map(([index, params]) => statement(job.statements[index]!).get(...params, job.named));
  });
}

/** Runs a job on the caller's connection, as the worker would. */
export function runWriteJob(db: Database.Database, job: WriteJob): unknown[] {
  let runner = runners.get(db);
  if (!runner) runners.set(db, (runner = jobRunner(db)));
  return runner.immediate(job);
}
