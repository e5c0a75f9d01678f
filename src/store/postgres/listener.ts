import pg from 'pg';
import { z } from 'zod';

// LISTEN on a connection of its own: a listening session must stay open, and a pooled connection
// would be handed to other queries between notifications. A dropped connection is reopened every
// second until it is back; notifications sent meanwhile are lost (NOTIFY keeps nothing for a
// listener that is not connected), so the gap is reported.

const REOPEN_MS = 1_000;

export interface Listener {
  /** Stops listening and closes the connection. */
  stop(): Promise<void>;
}

export interface ListenOptions {
  channel: string;
  onPayload: (payload: string) => void;
  /** Told when the connection dropped (it is being reopened), or could not be reopened. */
  onError: (error: Error) => void;
}

/** Resolves once the first connection listens; rejects when it cannot be opened. */
export async function listenOn(config: pg.ClientConfig, { channel, onPayload, onError }: ListenOptions): Promise<Listener> {
  let stopped = false;
  let live: pg.Client | undefined;
  let reopening: NodeJS.Timeout | undefined;

  const open = async (): Promise<void> => {
    const client = new pg.Client(config);
    client.on('notification', (notice) => {
      if (notice.channel === channel && notice.payload !== undefined) onPayload(notice.payload);
    });
    // Errors while connecting reject connect() below; only a listening connection is reopened.
    client.on('error', (error) => {
      if (live === client) dropped(client, error);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (stopped) return void (await client.end());
    live = client;
  };

  const reopenLater = (): void => {
    reopening = setTimeout(() => {
      reopening = undefined;
      if (stopped) return;
      open().catch((error: unknown) => {
        onError(new Error(`could not listen on ${channel} again: ${error instanceof Error ? error.message : String(error)}; retrying`, { cause: error }));
        reopenLater();
      });
    }, REOPEN_MS).unref();
  };

  const dropped = (client: pg.Client, error: Error): void => {
    live = undefined;
    void client.end().catch(() => undefined);
    if (stopped) return;
    onError(new Error(`stopped listening on ${channel}: ${error.message}; reopening the connection (notifications sent meanwhile are lost)`, { cause: error }));
    reopenLater();
  };

  await open();
  return {
    async stop() {
      stopped = true;
      clearTimeout(reopening);
      const client = live;
      live = undefined;
      await client?.end();
    },
  };
}

/** A notification's payload: JSON that `schema` accepts. */
export function jsonPayload<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}
