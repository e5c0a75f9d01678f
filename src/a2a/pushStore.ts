import { randomUUID } from 'node:crypto';
import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { ServerCallContext, StoredPushNotificationConfig } from '@a2a-js/sdk/server';
import type { PushConfigRecord, TaskRecords } from '../store/tasks.js';
import { callerOfUser, ownerOf } from './caller.js';
import { ABSENT_HEADER_VERSION } from './protocolVersion.js';
import type { VersionedPushStore } from './pushSender.js';

// The SDK's push config store on our Store, beside the tasks: a webhook registered before a
// restart is listed and delivered to after it. Scoped like the tasks, by agent and calling owner.

function storedOf(record: PushConfigRecord): StoredPushNotificationConfig {
  return { config: TaskPushNotificationConfig.fromJSON(record.document), wireVersion: record.wireVersion };
}

export function createPushStore(records: TaskRecords, agent: string): VersionedPushStore {
  const owner = (context: ServerCallContext): string => ownerOf(callerOfUser(context.user));
  const loadWithMetadata = async (taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> =>
    (await records.pushConfigs(agent, owner(context), taskId)).map(storedOf);
  return {
    async save(taskId, context, config) {
      // The SDK reads the id it answers with from the config it passed: one is assigned in place.
      if (!config.id) config.id = randomUUID();
      const wireVersion = context.requestedVersion || ABSENT_HEADER_VERSION;
      await records.savePushConfig({ agent, owner: owner(context), taskId, id: config.id, wireVersion, document: TaskPushNotificationConfig.toJSON(config) });
    },
    load: async (taskId, context) => (await loadWithMetadata(taskId, context)).map(({ config }) => config),
    loadWithMetadata,
    // As the SDK's own store: a delete that names no config deletes the one whose id is the task's (0.3's default id).
    delete: (taskId, context, configId) => records.deletePushConfig(agent, owner(context), taskId, configId ?? taskId),
  };
}
