import type { LanguageModelV3Message } from '@ai-sdk/provider';

// What one agent sees of earlier turns: its own replies as its own, other agents' replies
// labelled with their names, the user's messages as they were. Thoughts, tool calls and
// tool payloads are never projected (they are kept in the store, not fed back).

export interface TurnRecord {
  turnId: string;
  input: string;
  /** Complete agent messages of that turn, in order. */
  entries: Array<{ agent: string; text: string }>;
  /** The agent whose question the turn ended on (input-required): the next turn is its answer. */
  awaiting?: string;
  /** Where each remote agent's conversation stood at the end of the turn, by the agent's name. */
  remoteConversations?: Map<string, RemoteConversation>;
  /** Skills activated in the turn (activate_skill): their instructions stay in view of the agent that loaded them. */
  skills?: ActivatedSkill[];
}

export interface ActivatedSkill {
  agent: string;
  name: string;
  instructions: string;
}

export interface RemoteConversation {
  contextId: string;
  /** Its task that waits for the user's answer; '' when none. */
  waitingTaskId: string;
}

export interface ProjectionLimits {
  maxChars: number;
  maxTurns: number;
}

export const DEFAULT_PROJECTION_LIMITS: ProjectionLimits = { maxChars: 40_000, maxTurns: 16 };

function turnChars(turn: TurnRecord): number {
  let chars = turn.input.length;
  for (const entry of turn.entries) chars += entry.text.length + entry.agent.length + 4;
  for (const skill of turn.skills ?? []) chars += skill.instructions.length + skill.name.length + 24;
  return chars;
}

/** Unlike other tool payloads, a skill's instructions survive: they go on steering the agent that loaded them. */
function skillsLoaded(turn: TurnRecord, agent: string): string {
  return (turn.skills ?? [])
    .filter((skill) => skill.agent === agent)
    .map((skill) => `[skill ${skill.name}, loaded in this turn]:\n${skill.instructions}\n\n`)
    .join('');
}

function projectTurn(turn: TurnRecord, agent: string, out: LanguageModelV3Message[]): void {
  let pending = `${skillsLoaded(turn, agent)}${turn.input}`;
  for (const entry of turn.entries) {
    if (entry.agent === agent) {
      out.push({ role: 'user', content: [{ type: 'text', text: pending }] });
      out.push({ role: 'assistant', content: [{ type: 'text', text: entry.text }] });
      pending = '';
    } else {
      pending += `${pending ? '\n\n' : ''}[${entry.agent}]: ${entry.text}`;
    }
  }
  if (pending) out.push({ role: 'user', content: [{ type: 'text', text: pending }] });
}

/** Newest turns win: the window is the longest suffix within both limits. */
export function projectTranscript(history: readonly TurnRecord[], agent: string, limits: ProjectionLimits = DEFAULT_PROJECTION_LIMITS): LanguageModelV3Message[] {
  let first = history.length;
  let chars = 0;
  while (first > 0 && history.length - first < limits.maxTurns) {
    const size = turnChars(history[first - 1] as TurnRecord);
    if (chars + size > limits.maxChars) break;
    chars += size;
    first--;
  }
  const messages: LanguageModelV3Message[] = [];
  for (let i = first; i < history.length; i++) projectTurn(history[i] as TurnRecord, agent, messages);
  return messages;
}
