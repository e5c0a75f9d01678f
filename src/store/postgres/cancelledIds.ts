import type pg from 'pg';
import { z } from 'zod';
import type { Db } from './connection.js';
import { jsonPayload, type Listener } from './listener.js';

// A channel announcing cancelled ids to every process (task runs, background jobs). The ids go out
// inside the cancelling transaction, so listeners hear them when it commits and never if it rolls
// back; a few ids per notification keep each payload far under PostgreSQL's 8,000-byte limit.

const IDS_PER_NOTIFY = 100;
const cancelledIds = jsonPayload(z.array(z.string()));

export interface CancelledIdsChannel {
  notify(client: pg.PoolClient, ids: readonly string[]): Promise<void>;
  watch(db: Db, onCancel: (ids: readonly string[]) => void, onError: (error: Error) => void): Promise<Listener>;
}

/** `what` names the ids in the error about a payload that is not a list of them. */
export function cancelledIdsChannel(channel: string, what: string): CancelledIdsChannel {
  return {
    async notify(client, ids) {
      for (let start = 0; start < ids.length; start += IDS_PER_NOTIFY) {
        await client.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify(ids.slice(start, start + IDS_PER_NOTIFY))]);
      }
    },
    watch(db, onCancel, onError) {
      return db.listen({
        channel,
        onPayload(payload) {
          const ids = cancelledIds.safeParse(payload);
          // Only the store sends on the channel; anything else there is reported, not acted on.
          if (ids.success) onCancel(ids.data);
          else onError(new Error(`ignored a notification on ${channel} that is not a list of ${what}: ${payload.slice(0, 200)}`));
        },
        onError,
      });
    },
  };
}
