import { fork } from 'node:child_process';
import { startBenchTurnServer } from './serverStreams.js';
import { report } from './stats.js';

// 1,000 idle open streams (GET /sessions/:id/stream?follow=true on a session with no turn running)
// held by a client in another process: the server's RSS and heap per stream, measured as the
// growth from 10 streams (warm) to 1,010.

const WORKER = new URL('./idleStreamsWorker.js', import.meta.url).pathname;
const STREAMS = 1_000;
const WARM = 10;

async function holdStreams(url: string, count: number): Promise<() => Promise<void>> {
  const child = fork(WORKER, [url, String(count)], { stdio: 'inherit' });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the stream client exited (${code}) before opening its streams`)));
  });
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('stop');
    await exited;
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

export async function benchServerIdleStreams(): Promise<void> {
  const server = await startBenchTurnServer();
  const posted = await fetch(`${server.api}/turns`, server.post('idle'));
  await posted.text();
  const url = `${server.api}/sessions/s-idle/stream?follow=true`;
  const warm = await holdStreams(url, WARM);
  await settle();
  const before = process.memoryUsage();
  const many = await holdStreams(url, STREAMS);
  await settle();
  const after = process.memoryUsage();
  report(`idle follow streams (${STREAMS})`, {
    rss_kib_per_stream: (after.rss - before.rss) / 1024 / STREAMS,
    heap_kib_per_stream: (after.heapUsed - before.heapUsed) / 1024 / STREAMS,
    rss_mib_total: after.rss / 1024 / 1024,
  });
  await Promise.all([many(), warm()]);
  await server.close();
}
