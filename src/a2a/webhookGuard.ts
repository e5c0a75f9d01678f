import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { ResolveHost } from '../tools/guards/guardedFetch.js';
import { addressProblem, urlProblem, type NetworkPolicy } from '../tools/guards/ssrf.js';
import type { VersionedPushStore } from './pushSender.js';

// A caller names the webhook this server POSTs task updates to, so a webhook is checked like any
// URL the server fetches on someone else's behalf (the SSRF guard of tools/guards): refused when it
// points at this machine, its network or a cloud metadata service, unless the policy allows it.
// Checked when registered, so the caller hears of a refused webhook at once; the delivery
// (pushSender.ts) is checked again, on the address each connection really reaches.

async function webhookProblem(raw: string, policy: NetworkPolicy, resolve: ResolveHost): Promise<string | undefined> {
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
    addresses = await resolve(url.hostname, { all: true });
  } catch {
    return `${url.hostname} does not resolve`;
  }
  for (const { address } of addresses) {
    const problem = addressProblem(url.hostname, address, policy);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export function guardedPushStore(store: VersionedPushStore, policy: NetworkPolicy, resolve: ResolveHost): VersionedPushStore {
  return {
    async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
      const problem = await webhookProblem(config.url, policy, resolve);
      if (problem !== undefined) throw new RequestMalformedError(`push notification url refused: ${problem}`);
      await store.save(taskId, context, config);
    },
    load: (taskId, context) => store.load(taskId, context),
    loadWithMetadata: (taskId, context) => store.loadWithMetadata(taskId, context),
    delete: (taskId, context, configId) => store.delete(taskId, context, configId),
  };
}
