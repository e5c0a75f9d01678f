import type { JSONSchema7 } from '@ai-sdk/provider';
import type { CompiledAgent } from '../compileSyndicate.js';
import { ASK_USER } from '../../tools/builtin/askUser.js';

// The agent's tools as a code-mode script sees them: one async function per tool or subagent,
// named by a JavaScript identifier.

export interface ToolFunction {
  /** What the script calls. */
  name: string;
  /** The tool or subagent it calls. */
  toolName: string;
  description: string;
  inputSchema: JSONSchema7;
  /** A subagent (delegation, local or remote): it answers in text. */
  agent: boolean;
}

/** Tools a script cannot call: asking the user ends the turn, so the model asks directly. */
export const DIRECT_ONLY: ReadonlySet<string> = new Set([ASK_USER]);

// Names a script already has, or cannot declare: a tool named after one gets a suffix.
const TAKEN = new Set([
  ...'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null return super switch this throw true try typeof var void while with yield await static implements interface package private protected public'.split(' '),
  ...'globalThis console JSON Math Object Array String Number Boolean Promise Error Date RegExp Map Set Symbol BigInt Reflect Proxy undefined NaN Infinity eval parseInt parseFloat isNaN isFinite'.split(' '),
]);

function identifierOf(toolName: string): string {
  const safe = toolName.replace(/[^A-Za-z0-9_$]/g, '_');
  return /^[0-9]/.test(safe) ? `_${safe}` : safe;
}

export function toolFunctionsOf(agent: CompiledAgent): ToolFunction[] {
  const used = new Set(TAKEN);
  const functions: ToolFunction[] = [];
  for (const spec of agent.toolSpecs) {
    if (spec.type !== 'function' || DIRECT_ONLY.has(spec.name)) continue;
    const base = identifierOf(spec.name);
    let name = used.has(base) ? `${base}_tool` : base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    functions.push({ name, toolName: spec.name, description: spec.description ?? '', inputSchema: spec.inputSchema, agent: agent.subagents.has(spec.name) });
  }
  return functions;
}
