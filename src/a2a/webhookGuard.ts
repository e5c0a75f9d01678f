import { lookup } from 'node:dns/promises';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { PushNotificationStore, ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { addressProblem, urlProblem, type NetworkPolicy } from '../tools/guards/ssrf.js';

// A caller names the webhook this server POSTs task updates to, so a webhook is checked like any
// URL the server fetches on someone else's behalf (the SSRF guard of tools/guards): refused when it
// points at this machine, its network or a cloud metadata service, unless the policy allows it.
// Checked when registered; the SDK's sender then delivers with the platform fetch.

async function webhookProblem(raw: string, policy: NetworkPolicy): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `'${raw}' is not an absolute URL`;
  }
  const literal = urlProblem(url, policy);
  if (literal !== undefined) return literal;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(url.hostname, { all: true });
  } catch {
    return `${url.hostname} does not resolve`;
  }
  for (const { address } of addresses) {
    const problem = addressProblem(url.hostname, address, policy);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export function guardedPushStore(store: PushNotificationStore, policy: NetworkPolicy): PushNotificationStore {
  return {
    async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
      const problem = await webhookProblem(config.url, policy);
      if (problem !== undefined) throw new RequestMalformedError(`push notification url refused: ${problem}`);
      await store.save(taskId, context, config);
    },
    load: (taskId, context) => store.load(taskId, context),
    // Kept: the sender reads each webhook's wire version (1.0 or 0.3) from it.
    ...(store.loadWithMetadata && { loadWithMetadata: (taskId: string, context: ServerCallContext) => store.loadWithMetadata!(taskId, context) }),
    delete: (taskId, context, configId) => store.delete(taskId, context, configId),
  };
}
