import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** A name for this process in leases: host and pid say which process it is, the suffix keeps a restarted pid apart. */
export function processRunnerName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
