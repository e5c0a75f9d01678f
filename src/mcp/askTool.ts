import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ownerOf, siloOf, type Caller } from '../a2a/caller.js';
import { LOCAL_CALLER } from './callerAuth.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { TurnMemory } from '../memory/turnMemory.js';
import type { TurnObserver } from '../core/events.js';
import { runTurn } from '../runtime/runTurn.js';
import { scopedSessionId } from '../runtime/sessionScope.js';
import type { Store } from '../store/store.js';
import { defineTool, type Tool } from '../core/tool.js';
import { progressOf } from './toolAdapter.js';
import { progressMessage } from './turnProgress.js';

// A syndicate served as one tool: each call is one real turn through runTurn, with the same
// store, sessions and usage ledger as `syndicate run`.

const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const askInput = z.object({
  message: z.string().trim().min(1).describe('What to ask, with all the context the syndicate needs.'),
  session_id: z
    .string()
    .regex(SESSION_ID, 'use 1-128 letters, digits, ".", "_", ":" or "-"')
    .optional()
    .describe('Continue a conversation: the session_id an earlier answer returned. Omit it to start a new one.'),
});

export type AskInput = z.infer<typeof askInput>;

export interface AskAnswer {
  answer: string;
  /** Pass it back as `session_id` to continue; absent when the syndicate keeps no sessions. */
  session_id?: string;
}

/** Observers for one turn (usage ledger, tracing) and a way to wait until they have written. */
export interface TurnRecording {
  observers: readonly TurnObserver[];
  settled(): Promise<void>;
}

export interface ServedSyndicate {
  syndicate: CompiledSyndicate;
  /** Undefined for `memory_system: internal-only`: nothing is stored and session_id is refused. */
  store: Store | undefined;
  /** Called once per call with its session (null when none is kept). */
  recordingFor?(sessionId: string | null): TurnRecording;
  /** Long-term memory of a caller's silo (memory_system: long-term). */
  memoryFor?(silo: string): Promise<TurnMemory | undefined>;
  /** Called after each completed turn: a long-term syndicate distils the session into the caller's silo. */
  afterTurn?(silo: string, sessionId: string): void;
}

// MCP allows 128 characters, but clients hand tool names to models, and OpenAI and Gemini take
// at most 64.
const MAX_TOOL_NAME = 64;

export const ASK_PREFIX = 'ask_';

/** `ask_<syndicate>` in the characters MCP tool names allow, e.g. "Council Of Elders" -> ask_council_of_elders. */
function askToolName(syndicateName: string): string {
  const slug = syndicateName.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return `${ASK_PREFIX}${slug || 'syndicate'}`.slice(0, MAX_TOOL_NAME);
}

function describe(syndicate: CompiledSyndicate): string {
  const about = syndicate.description ? ` ${syndicate.description}` : '';
  const memory =
    syndicate.memorySystem === 'internal-only'
      ? 'Each call starts afresh (it keeps no sessions).'
      : 'Returns the answer and a session_id; pass the session_id back to continue the same conversation.';
  return `Ask the ${syndicate.name} syndicate.${about} Runs a full turn of its agents and reports their steps as progress. ${memory}`;
}

/**
 * Who calls the MCP face: the client that launched the stdio server, or whoever passes the HTTP
 * server's guards (its bearer token, or loopback when none is set). Each keeps its own sessions.
 */
export type McpCaller = 'stdio' | 'http';

/**
 * Where the conversation an MCP caller names `sessionId` is stored: in the MCP face's namespace,
 * never another face's (see sessionScope.ts), and for an authenticated caller or a named user in
 * theirs, so one user's session_id never opens another's conversation.
 */
export function mcpSessionIdFor(face: McpCaller, sessionId: string, caller: Caller = LOCAL_CALLER): string {
  const owner = ownerOf(caller);
  return scopedSessionId(owner === LOCAL_CALLER.principal ? `mcp:${face}` : `mcp:${face}:${owner}`, sessionId);
}

interface CallSession {
  /** What the caller sees and passes back. */
  shown: string;
  /** The session in the store. */
  stored: string;
}

async function sessionFor(served: ServedSyndicate, face: McpCaller, caller: Caller, requested: string | undefined): Promise<CallSession | undefined> {
  const { syndicate, store } = served;
  if (store === undefined) {
    if (requested !== undefined) throw new Error(`${syndicate.name} keeps no sessions (memory_system: internal-only): call it without session_id`);
    return undefined;
  }
  const shown = requested ?? randomUUID();
  const stored = mcpSessionIdFor(face, shown, caller);
  const existing = await store.getSession(stored);
  // Continuing another syndicate's session would feed this one a conversation it never had.
  if (existing !== undefined && existing.syndicate !== syndicate.name) {
    throw new Error(`session ${shown} belongs to the syndicate '${existing.syndicate}', not '${syndicate.name}': omit session_id to start a new one`);
  }
  return { shown, stored };
}

/** The ask tool for one caller: its sessions and its memory silo are the caller's own. */
export function askTool(served: ServedSyndicate, face: McpCaller, caller: Caller = LOCAL_CALLER): Tool<AskInput, AskAnswer> {
  const { syndicate, store } = served;
  return defineTool({
    name: askToolName(syndicate.name),
    description: describe(syndicate),
    inputSchema: askInput,
    async execute(input, ctx) {
      const session = await sessionFor(served, face, caller, input.session_id);
      const silo = siloOf(caller, syndicate.name);
      const memory = await served.memoryFor?.(silo);
      const sessionId = session?.stored;
      const recording = served.recordingFor?.(sessionId ?? null);
      const progress = progressOf(ctx);
      // The turn stops when the caller cancels, and also when progress can no longer be sent
      // (the caller is gone): nobody would receive its answer.
      const unreachable = new AbortController();
      const signal = AbortSignal.any([ctx.signal, unreachable.signal]);
      let answer: string | undefined;
      let failure = 'the turn ended without an answer';
      try {
        for await (const event of runTurn(syndicate, { input: input.message, sessionId, store, signal, observers: recording?.observers, stream: false, memory })) {
          const message = progressMessage(event);
          if (message !== undefined) await progress(message);
          if (event.type === 'turn-end') {
            if (event.status === 'completed') answer = event.output;
            else failure = event.error ?? `the turn was ${event.status}`;
          }
        }
      } finally {
        unreachable.abort();
        await recording?.settled();
      }
      if (answer === undefined) throw new Error(failure);
      if (session === undefined) return { answer };
      served.afterTurn?.(silo, session.stored);
      return { answer, session_id: session.shown };
    },
  });
}
