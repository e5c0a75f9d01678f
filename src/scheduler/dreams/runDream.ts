import { randomUUID } from 'node:crypto';
import { MEMORY_TOOLS } from '../../config/memoryTools.js';
import { errorMessage } from '../../core/errors.js';
import { siloFor } from '../../core/silo.js';
import type { AnyTool } from '../../core/tool.js';
import type { Memory } from '../../memory/openMemory.js';
import { collectTurn } from '../../runtime/collectTurn.js';
import { functionToolOf, type CompiledAgent, type CompiledSyndicate } from '../../runtime/compileSyndicate.js';
import type { RunTurnOptions } from '../../runtime/runTurn.js';
import { DREAM_INTERRUPTED_ERROR, type DreamOutcome, type DreamRunRecord } from '../../store/backgroundJobs.js';
import type { Store } from '../../store/store.js';
import { builtinTools } from '../../tools/registry.js';
import { processRunnerName } from '../runnerName.js';
import { sessionsToReflectOn, transcriptOf } from './dreamSessions.js';

// One dream: an unattended reflection of the syndicate's dreaming agent over one user's sessions
// since the silo's last dream. It runs with the memory tools and the tools `dreams.tools` lists,
// nothing else (no ask_user, no subagents, no background jobs), in a session of its own
// (`dream:<silo>:<run id>`); its answer becomes the dated journal document
// `journal/<YYYY-MM-DD>.md` of the silo's memory, and its session is distilled into facts. While
// it runs, its record's lease is renewed; a process that dies stops renewing, and the next sweep
// (DreamRunRecords.interruptExpired, startDreams) marks the dream interrupted.

export const JOURNAL_BUNDLE = 'journal';

/** A dream's lease: renewed every third of it. */
export const DREAM_LEASE_MS = 30_000;

const DEFAULT_INSTRUCTION =
  'You are dreaming: nobody is here. Read the conversations below and write a short journal entry: what the user cared about, what was decided, what is still open, and anything worth remembering next time. Use your memory tools to check or correct what is already remembered.';

export interface RunDreamOptions {
  store: Store;
  syndicate: CompiledSyndicate;
  /** The user's silo memory (platform.memory(syndicate, siloFor(syndicate.name, user))). */
  memory: Memory;
  user: string;
  now?: () => Date;
  signal?: AbortSignal;
  /** Observers (ledger, tracing) and limits for the dream's turn. */
  turnOptions?: Partial<RunTurnOptions>;
  /** This process's name in the dream's lease; a fresh one by default. */
  runner?: string;
  leaseMs?: number;
  /** Told when the lease could not be renewed, or was lost. */
  warn?(message: string): void;
}

/** The dreaming agent with its restricted tool set. */
function dreamingAgent(agent: CompiledAgent, listed: readonly string[], instruction: string | undefined): CompiledAgent {
  const tools: AnyTool[] = listed.flatMap((name) => {
    if (MEMORY_TOOLS.includes(name) || name === 'ask_user') return [];
    const tool = agent.tools.get(name) ?? builtinTools.get(name);
    return tool ? [tool] : [];
  });
  return {
    ...agent,
    instruction: [agent.instruction, instruction ?? DEFAULT_INSTRUCTION].join('\n\n'),
    subagents: new Map(),
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    toolSpecs: tools.map(functionToolOf),
    mcp: undefined,
    dispatch: undefined,
    memoryTools: MEMORY_TOOLS,
    backgroundTools: [],
    preloadMemory: false,
    outputSchema: undefined,
    codeMode: false,
  };
}

function journalOf(day: string, answer: string, sessions: number): string {
  return `# Dream of ${day}\n\n${answer.trim()}\n\n_Reflected on ${sessions} session${sessions === 1 ? '' : 's'}._\n`;
}

/** Runs one dream and records it; resolves to its run record (failed, with the reason, when it failed). */
export async function runDream(options: RunDreamOptions): Promise<DreamRunRecord> {
  const { store, syndicate, memory, user } = options;
  const config = syndicate.dreams;
  if (!config) throw new Error(`the syndicate '${syndicate.name}' declares no dreams: add a dreams: block to its file`);
  const agent = syndicate.agents.get(config.agent);
  if (!agent) throw new Error(`the syndicate '${syndicate.name}' has no agent '${config.agent}' to dream (the loader should have refused this file)`);
  const silo = siloFor(syndicate.name, user);
  const started = options.now?.() ?? new Date();
  const [last] = await store.dreamRuns.list(syndicate.name, silo, 1);
  // After a failed or interrupted dream the next one covers its sessions too.
  const since = last === undefined ? 0 : last.status === 'answered' ? last.startedAt : last.since;
  const id = randomUUID();
  const run = { id, syndicate: syndicate.name, silo, sessionId: `dream:${silo}:${id}`, since, startedAt: started.getTime() };
  const runner = options.runner ?? processRunnerName();
  const leaseMs = options.leaseMs ?? DREAM_LEASE_MS;
  const clock = (): number => (options.now?.() ?? new Date()).getTime();
  await store.dreamRuns.start({ ...run, runner, leaseExpiresAt: run.startedAt + leaseMs });
  const lease = keepLease(store, id, runner, leaseMs, clock, options.warn);
  try {
    const sessions = await sessionsToReflectOn(store, syndicate.name, user, since);
    const finish = async (outcome: Omit<DreamOutcome, 'sessions' | 'endedAt'>): Promise<DreamRunRecord> => {
      lease.stop();
      const ended = { ...outcome, sessions: sessions.length, endedAt: clock() };
      if (await store.dreamRuns.finish(id, runner, ended)) return { ...run, ...ended };
      return { ...run, ...ended, status: 'interrupted', error: DREAM_INTERRUPTED_ERROR };
    };
    if (sessions.length === 0) return await finish({ status: 'answered', journalPath: null, facts: 0, error: null });
    const signal = options.signal ? AbortSignal.any([options.signal, lease.lost]) : lease.lost;
    try {
      const rooted: CompiledSyndicate = { ...syndicate, root: dreamingAgent(agent, config.tools ?? [], config.instruction) };
      const input = `Conversations since ${since === 0 ? 'the beginning' : new Date(since).toISOString()}:\n\n${await transcriptOf(store, sessions)}`;
      const { end } = await collectTurn(rooted, { stream: false, ...options.turnOptions, input, sessionId: run.sessionId, newSession: true, store, memory: memory.turn, signal, now: () => started });
      if (end.status !== 'completed') return await finish({ status: 'failed', journalPath: null, facts: 0, error: end.error ?? `the dream's turn ended ${end.status}` });
      const day = started.toISOString().slice(0, 10);
      await memory.documents.write(silo, { bundle: JOURNAL_BUNDLE, path: `${day}.md`, content: journalOf(day, end.output, sessions.length), actor: `dream:${agent.name}`, reason: `the dream of ${day}` });
      const distilled = await memory.facts.ingestSession(run.sessionId, signal);
      return await finish({ status: 'answered', journalPath: `${JOURNAL_BUNDLE}/${day}.md`, facts: distilled.stored, error: null });
    } catch (error) {
      return await finish({ status: 'failed', journalPath: null, facts: 0, error: errorMessage(error) });
    }
  } finally {
    lease.stop();
  }
}

/** Renews the dream's lease every third of it; `lost` aborts once another process has marked the dream interrupted. */
function keepLease(store: Store, id: string, runner: string, leaseMs: number, clock: () => number, warn: RunDreamOptions['warn']): { lost: AbortSignal; stop(): void } {
  const lost = new AbortController();
  // Once the end is being recorded, a heartbeat racing the write finds the dream no longer running, which is no lost lease.
  let stopped = false;
  const timer = setInterval(() => {
    store.dreamRuns.heartbeat(id, runner, clock() + leaseMs).then(
      (held) => {
        if (held || stopped || lost.signal.aborted) return;
        warn?.(`dream ${id} lost its lease (this process stalled past it, and the dream was marked interrupted); stopping it`);
        lost.abort(new Error(DREAM_INTERRUPTED_ERROR));
      },
      (error: unknown) => warn?.(`could not renew the lease of dream ${id}: ${errorMessage(error)}; trying again in ${Math.round(leaseMs / 3000)} s`),
    );
  }, leaseMs / 3);
  timer.unref();
  return {
    lost: lost.signal,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
