import type { StreamResponse, Task } from '@a2a-js/sdk';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  V1PushNotificationSerializer,
  type PushNotificationSender,
  type PushNotificationSerializer,
  type PushNotificationStore,
  type ServerCallContext,
  type StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';
import { guardedRequest, type ResolveHost } from '../tools/guards/guardedFetch.js';
import type { NetworkPolicy } from '../tools/guards/ssrf.js';
import type { Warn } from './rateLimitedWarning.js';

// Delivers task updates to the webhooks callers registered, through the SSRF guard's fetch: the
// SDK's own sender POSTs with the platform fetch, which follows a webhook's redirect anywhere and
// connects to whatever the host resolves to at delivery (DNS rebinding), whatever was checked when
// the webhook was registered. Payloads, headers and per-task ordering are the SDK sender's.

/** A push config store that keeps each webhook's protocol version. */
export type VersionedPushStore = PushNotificationStore & Required<Pick<PushNotificationStore, 'loadWithMetadata'>>;

export interface PushSenderOptions {
  store: VersionedPushStore;
  policy: NetworkPolicy;
  resolve: ResolveHost;
  timeoutMs: number;
  /** A delivery that failed or was refused. */
  warn: Warn;
}

// Each webhook gets the body shape of the protocol version it was registered over.
const SERIALIZERS: ReadonlyMap<string, PushNotificationSerializer> = new Map<string, PushNotificationSerializer>([
  ['1.0', new V1PushNotificationSerializer()],
  ['0.3', new V03PushNotificationSerializer()],
]);
const FALLBACK_VERSION = '1.0';
// The SDK's header for a webhook registered with a bare token (0.3's scheme).
const TOKEN_HEADER = 'X-A2A-Notification-Token';

function taskIdOf(update: StreamResponse): string {
  const payload = update.payload;
  if (payload === undefined) return '';
  return payload.$case === 'task' ? payload.value.id : payload.value.taskId;
}

function authHeaders({ config }: StoredPushNotificationConfig): Record<string, string> {
  if (config.authentication?.scheme && config.authentication.credentials) return { authorization: `${config.authentication.scheme} ${config.authentication.credentials}` };
  return config.token ? { [TOKEN_HEADER]: config.token } : {};
}

async function deliver(update: StreamResponse, task: Task | undefined, stored: StoredPushNotificationConfig, options: PushSenderOptions): Promise<void> {
  const serializer = SERIALIZERS.get(stored.wireVersion) ?? SERIALIZERS.get(FALLBACK_VERSION)!;
  const { body, contentType } = serializer.serialize(update, task);
  const { response } = await guardedRequest(
    stored.config.url,
    { method: 'POST', headers: { 'content-type': contentType, ...authHeaders(stored) }, body, signal: AbortSignal.timeout(options.timeoutMs) },
    options.policy,
    options.resolve,
  );
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the webhook answered HTTP ${response.status}`);
}

export function createPushSender(options: PushSenderOptions): PushNotificationSender {
  // A task's updates are delivered in order: each waits for the one before it.
  const chains = new Map<string, Promise<void>>();
  return {
    async send(update: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
      const taskId = taskIdOf(update);
      if (taskId === '') return;
      const configs = await options.store.loadWithMetadata(taskId, context);
      if (configs.length === 0) return;
      const previous = chains.get(taskId) ?? Promise.resolve();
      const next = previous.then(async () => {
        await Promise.all(
          configs.map((stored) =>
            deliver(update, task, stored, options).catch((error: unknown) => {
              options.warn(`warning: a push notification for A2A task ${taskId} was not delivered to ${stored.config.url}: ${error instanceof Error ? error.message : String(error)}`);
            }),
          ),
        );
      });
      chains.set(taskId, next);
      await next;
      if (chains.get(taskId) === next) chains.delete(taskId);
    },
  };
}
