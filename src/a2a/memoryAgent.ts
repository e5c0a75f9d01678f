import { TaskState, type AgentCard, type AgentSkill, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { z } from 'zod';
import type { Memory } from '../memory/openMemory.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import { createEmbeddingRouter } from '../runtime/embeddingRouter.js';
import { errorMessage } from '../core/errors.js';
import { buildAgentCard } from './agentCard.js';
import { callerOfUser, ownerOf, siloOf } from './caller.js';
import { agentIdFor, type ServedAgent } from './createA2aApp.js';
import { publishStatus, taskOf } from './executor.js';
import { agentMessage, textPart } from './messages.js';
import { describeArgs, memorySkill, MEMORY_SKILL_LIST, missingArgs, runMemorySkill, type MemorySkill, type SkillOutput } from './memorySkills.js';

// A syndicate's long-term memory as an A2A agent (the "shared memory node"): other agents delegate
// memory work to it. A data part {"skill", "args"} runs a skill as asked; free text goes to the
// skill whose description is closest (the embedding router, no model call). Everything happens in
// the caller's silo, and what a caller stores is stamped with the caller's identity.

export interface MemoryAgentOptions {
  syndicate: CompiledSyndicate;
  /** The memory of a silo; undefined when the syndicate keeps no long-term memory. */
  memoryFor: (silo: string) => Promise<Memory | undefined>;
  minSimilarity?: number;
}

/** The same threshold dispatch's embedding classifier uses by default. */
export const DEFAULT_MEMORY_MIN_SIMILARITY = 0.15;

// Task metadata under which a write waiting for input keeps its skill and the args it has so far:
// the task store persists it, so the reply completes the task even after a restart.
const PENDING_KEY = 'syndicateMemoryPending';

const ArgsSchema = z.record(z.string(), z.unknown());
/** A data part of a request: a skill call, or (replying to a task waiting for input) more args. */
const SkillRequestSchema = z.object({ skill: z.string().min(1).optional(), args: ArgsSchema.default({}) });
const PendingSchema = z.object({ skill: z.string(), args: ArgsSchema });
type Pending = z.infer<typeof PendingSchema>;

const RESULT_ARTIFACT = 'result';

export function memoryAgentIdFor(syndicateName: string): string {
  return `${agentIdFor(syndicateName)}-memory`;
}

function cardSkill(skill: MemorySkill): AgentSkill {
  const args = Object.keys(skill.required);
  const example = JSON.stringify({ skill: skill.id, args: Object.fromEntries(args.map((name) => [name, '...'])) });
  return {
    id: skill.id,
    name: skill.id,
    description: `${skill.description} Send a data part ${example}${skill.id === 'recall' ? ', or just ask in words' : ''}.`,
    tags: ['memory', ...(skill.writes ? ['write'] : [])],
    examples: [example],
    inputModes: ['application/json', 'text/plain'],
    outputModes: skill.id === 'export' ? ['application/zip'] : ['text/plain', 'application/json'],
    securityRequirements: [],
  };
}

function memoryCards(syndicate: CompiledSyndicate): ServedAgent['cards'] {
  return (options) => {
    const card: AgentCard = {
      ...buildAgentCard(syndicate, options),
      name: `${syndicate.name} memory`,
      description: `The long-term memory of ${syndicate.name}: facts to remember and recall, and markdown document bundles to read, list, trace and export. Each caller has its own silo.`,
      defaultOutputModes: ['text/plain', 'application/json', 'application/zip'],
      skills: MEMORY_SKILL_LIST.map(cardSkill),
    };
    return { card, extended: card };
  };
}

function dataRequestOf(message: Message): z.ZodSafeParseResult<z.infer<typeof SkillRequestSchema>> | undefined {
  const part = message.parts.find((candidate) => candidate.content?.$case === 'data');
  return part?.content?.$case === 'data' ? SkillRequestSchema.safeParse(part.content.value) : undefined;
}

function textOf(message: Message): string {
  return message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('\n')
    .trim();
}

function partOf(output: Exclude<SkillOutput, { kind: 'refused' }>): Part {
  switch (output.kind) {
    case 'text':
      return textPart(output.text);
    case 'data':
      return { content: { $case: 'data', value: output.data }, metadata: undefined, filename: '', mediaType: 'application/json' };
    case 'file':
      return { content: { $case: 'raw', value: Buffer.from(output.bytes) }, metadata: undefined, filename: output.filename, mediaType: output.mediaType };
  }
}

/** What a missing write input asks for, in words the calling agent can act on. */
function inputRequest(skill: MemorySkill, missing: readonly string[]): string {
  return (
    `${skill.id} needs ${describeArgs(skill, missing)}. Reply to this task with a data part {"args": {...}} carrying ` +
    `${missing.length === 1 ? 'it' : 'them'}${missing[0] === 'text' ? ', or with the fact as a text part' : ''}.`
  );
}

export function createMemoryAgent(options: MemoryAgentOptions): ServedAgent {
  const { syndicate, memoryFor } = options;
  const router = createEmbeddingRouter(
    syndicate.embedder(),
    MEMORY_SKILL_LIST.map((skill) => ({ name: skill.id, description: skill.description })),
    options.minSimilarity ?? DEFAULT_MEMORY_MIN_SIMILARITY,
  );
  // Tasks waiting for input, by id: cancelling one has nothing running to stop.
  const waiting = new Map<string, string>();

  /** The skill and args a message asks for, with a progress note; a string is why it cannot run. */
  async function requestOf(context: RequestContext, signal: AbortSignal): Promise<{ skill: MemorySkill; args: Record<string, unknown>; note?: string } | string> {
    const pending = PendingSchema.safeParse(context.task?.metadata?.[PENDING_KEY]);
    const data = dataRequestOf(context.userMessage);
    if (data && !data.success) return `the data part is not a skill call: ${data.error.issues.map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`).join('; ')}. Send {"skill": "<one of ${MEMORY_SKILL_LIST.map((skill) => skill.id).join(', ')}>", "args": {...}}.`;
    const text = textOf(context.userMessage);
    if (pending.success) return resumed(pending.data, data?.data.args ?? {}, text);
    if (data?.data.skill !== undefined) {
      const skill = memorySkill(data.data.skill);
      if (!skill) return `there is no skill '${data.data.skill}': use one of ${MEMORY_SKILL_LIST.map((candidate) => candidate.id).join(', ')}.`;
      return { skill, args: data.data.args };
    }
    if (text === '') return 'the message has neither a skill call (a data part {"skill": ..., "args": {...}}) nor text to route.';
    const match = await router.closest(text, signal);
    const similarity = match.similarity.toFixed(2);
    if (match.similarity < router.minSimilarity) {
      return { skill: memorySkill('recall')!, args: { query: text }, note: `No skill is close to the message (best: ${match.route} at ${similarity}, minimum ${router.minSimilarity}): recalling facts for it.` };
    }
    const skill = memorySkill(match.route)!;
    return { skill, args: skill.argsFromText(text), note: `Routed to ${skill.id} — closest skill to the message (similarity ${similarity})` };
  }

  function resumed(pending: Pending, more: Record<string, unknown>, text: string): { skill: MemorySkill; args: Record<string, unknown> } | string {
    const skill = memorySkill(pending.skill);
    if (!skill) return `the task waits for a skill this server does not have ('${pending.skill}')`;
    const args = { ...pending.args, ...more };
    // A text reply is the first thing asked for, when that is text (the fact to remember).
    if (text !== '' && missingArgs(skill, args)[0] === 'text') args.text = text;
    return { skill, args };
  }

  return {
    id: memoryAgentIdFor(syndicate.name),
    cards: memoryCards(syndicate),
    executor: {
      async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
        const { taskId, contextId } = context;
        const caller = callerOfUser(context.context.user);
        waiting.delete(taskId);
        bus.publish(AgentEvent.task(taskOf(context)));
        const fail = (why: string): void => publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_FAILED, `Memory: ${why}`);
        const controller = new AbortController();
        try {
          const request = await requestOf(context, controller.signal);
          if (typeof request === 'string') return fail(request);
          const { skill, args } = request;
          publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_WORKING, request.note);
          const missing = missingArgs(skill, args);
          if (missing.length > 0 && skill.writes) {
            waiting.set(taskId, contextId);
            const message = agentMessage(inputRequest(skill, missing), taskId, contextId);
            const pending: Pending = { skill: skill.id, args };
            bus.publish(
              AgentEvent.statusUpdate({
                taskId,
                contextId,
                status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message, timestamp: new Date().toISOString() },
                metadata: { [PENDING_KEY]: pending },
              }),
            );
            return;
          }
          if (missing.length > 0) return fail(`${skill.id} needs ${describeArgs(skill, missing)}: send {"skill": "${skill.id}", "args": {...}} with ${missing.length === 1 ? 'it' : 'them'}.`);
          const memory = await memoryFor(siloOf(caller, syndicate.name));
          if (!memory) return fail(`${syndicate.name} keeps no long-term memory: set memory_system: long-term in its syndicate file.`);
          const output = await runMemorySkill(skill, args, { memory, actor: `a2a:${ownerOf(caller)}`, signal: controller.signal });
          if (output.kind === 'refused') return fail(output.reason);
          const artifact = { artifactId: RESULT_ARTIFACT, name: skill.id, description: '', parts: [partOf(output)], metadata: undefined, extensions: [] };
          bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
          // A resumed task's metadata no longer waits for anything.
          const resumed = context.task?.metadata?.[PENDING_KEY] != null;
          bus.publish(
            AgentEvent.statusUpdate({
              taskId,
              contextId,
              status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
              metadata: resumed ? { [PENDING_KEY]: null } : undefined,
            }),
          );
        } catch (error) {
          // A refusal of the documents layer (a path outside the bundle, a missing document) or a
          // failing store: either way the caller hears why, as the task's failure.
          fail(errorMessage(error));
        }
      },

      async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
        const contextId = waiting.get(taskId);
        if (contextId === undefined) return;
        waiting.delete(taskId);
        publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_CANCELED, 'Cancelled while waiting for input.');
      },
    } satisfies AgentExecutor,
  };
}
