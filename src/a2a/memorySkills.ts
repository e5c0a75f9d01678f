import { z } from 'zod';
import type { Memory } from '../memory/openMemory.js';
import { sharedMemoryTools } from '../memory/sharedMemoryTools.js';
import type { ToolContext } from '../core/tool.js';

// The skills of a syndicate's memory served as an A2A agent. Each runs one of the shared memory
// tools (the MCP face runs the same ones) or exports a bundle; args are checked by the tool's own
// zod schema, so both faces refuse the same inputs with the same words.

export const MEMORY_SKILLS = ['remember', 'recall', 'read', 'list', 'history', 'export'] as const;
export type MemorySkillId = (typeof MEMORY_SKILLS)[number];

/** What a skill hands back: text, structured data, a file, or why its args were refused. */
export type SkillOutput =
  | { kind: 'text'; text: string }
  | { kind: 'data'; data: unknown }
  | { kind: 'file'; bytes: Uint8Array; filename: string; mediaType: string }
  | { kind: 'refused'; reason: string };

export interface MemorySkill {
  id: MemorySkillId;
  description: string;
  /** Writes ask for what is missing (INPUT_REQUIRED); reads fail naming it. */
  writes: boolean;
  /** The args a call cannot go without, with what each is. */
  required: Readonly<Record<string, string>>;
  /** The args a free-text message stands for. */
  argsFromText(text: string): Record<string, unknown>;
}

/** One call's memory (the caller's silo) and caller. */
export interface SkillCall {
  memory: Memory;
  /** Stamped on writes as the fact's source (the calling agent's identity). */
  actor: string;
  signal: AbortSignal;
}

const EXPORT_ARGS = z.object({ bundle: z.string().min(1).max(64).describe('The bundle to export.') });

export const MEMORY_SKILL_LIST: readonly MemorySkill[] = [
  {
    id: 'remember',
    description: 'Remember a fact: store one new fact about the user in long-term memory, with the keys it is about.',
    writes: true,
    required: { text: 'the fact as one sentence', keys: "1-5 lower-case keys the fact is about, e.g. ['home']" },
    argsFromText: (text) => ({ text }),
  },
  {
    id: 'recall',
    description: 'Recall facts: what do you know or remember about a question, person, place or topic; look up facts in long-term memory.',
    writes: false,
    required: { query: 'what to look up' },
    argsFromText: (text) => ({ query: text }),
  },
  {
    id: 'read',
    description: 'Read a document: return one markdown document of a bundle, by its path.',
    writes: false,
    required: { bundle: 'the bundle name', path: 'the document path' },
    argsFromText: () => ({}),
  },
  {
    id: 'list',
    description: 'List documents: show which markdown documents and bundles are stored, with their titles.',
    writes: false,
    required: {},
    argsFromText: () => ({}),
  },
  {
    id: 'history',
    description: "Show a document's history: its revisions, who changed it, when and why.",
    writes: false,
    required: { bundle: 'the bundle name', path: 'the document path' },
    argsFromText: () => ({}),
  },
  {
    id: 'export',
    description: 'Export a bundle: download all documents of one bundle as a zip archive.',
    writes: false,
    required: { bundle: 'the bundle name' },
    argsFromText: () => ({}),
  },
];

const TOOL_OF: Record<Exclude<MemorySkillId, 'export'>, string> = {
  remember: 'remember',
  recall: 'recall',
  read: 'memory_read',
  list: 'memory_list',
  history: 'memory_history',
};

export function memorySkill(id: string): MemorySkill | undefined {
  return MEMORY_SKILL_LIST.find((skill) => skill.id === id);
}

/** The required args a call leaves out, in the order the skill lists them. */
export function missingArgs(skill: MemorySkill, args: Record<string, unknown>): string[] {
  return Object.keys(skill.required).filter((name) => args[name] === undefined);
}

/** Missing args in words: "text (the fact as one sentence) and keys (...)". */
export function describeArgs(skill: MemorySkill, names: readonly string[]): string {
  return names.map((name) => `${name} (${skill.required[name]})`).join(' and ');
}

function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(args)'}: ${issue.message}`).join('; ');
}

export async function runMemorySkill(skill: MemorySkill, args: Record<string, unknown>, call: SkillCall): Promise<SkillOutput> {
  const id = skill.id;
  if (id === 'export') {
    const parsed = EXPORT_ARGS.safeParse(args);
    if (!parsed.success) return { kind: 'refused', reason: `export: ${issuesOf(parsed.error)}` };
    const bytes = await call.memory.documents.exportBundle(call.memory.facts.silo, parsed.data.bundle);
    return { kind: 'file', bytes, filename: `${parsed.data.bundle}.zip`, mediaType: 'application/zip' };
  }
  const tool = sharedMemoryTools(call.memory).find((candidate) => candidate.name === TOOL_OF[id]);
  if (!tool) throw new Error(`the shared memory tools have no ${TOOL_OF[id]} tool`);
  // The caller's identity, never what the caller says it is, is the source of what it stores.
  const input = id === 'remember' ? { ...args, source: call.actor } : args;
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return { kind: 'refused', reason: `${skill.id}: ${issuesOf(parsed.error)}` };
  const ctx: ToolContext = { agent: call.actor, turnId: crypto.randomUUID(), sessionId: undefined, signal: call.signal };
  const output = await tool.execute(parsed.data, ctx);
  if (typeof output === 'string') return { kind: 'text', text: output };
  // A tool that presents its output (recall) answers in the words a model reads, as before.
  return tool.present ? { kind: 'text', text: tool.present(output) } : { kind: 'data', data: output };
}
