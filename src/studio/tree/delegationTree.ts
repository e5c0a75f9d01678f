import type { DelegateKind, TurnEvent, TurnStatus } from '../../core/events.js';

// Folds a turn's events (live or stored, src/core/events.ts) into the tree of who did what: the
// orchestrator, the subagents it consulted (and theirs), the specialist a route picked, each
// with its status, models, tokens, cost, time, tool calls and text. Pure: the studio renders the
// same tree for a running turn and for a replayed transcript.

/** What a node is: the turn's orchestrator, or what the event that started its run says it is. */
export type NodeKind = 'orchestrator' | DelegateKind;

export type NodeStatus = 'running' | 'completed' | 'failed' | TurnStatus;

export interface ToolCallNode {
  callId: string;
  tool: string;
  input: unknown;
  /** cancelled: its turn ended before it answered (a cancel, a failure, a question to the user). */
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  output?: unknown;
  /** The execute_code call whose script made this call (code mode). */
  parentCallId?: string;
}

export interface TokenCounts {
  input: number;
  output: number;
  reasoning: number;
  cachedInput: number;
}

export interface AgentNode {
  /** 'root', or the delegation's callId, or `route:<agent>` under its dispatcher. */
  id: string;
  agent: string;
  kind: NodeKind;
  /** What the parent asked (a delegation's request, a routed specialist's input). */
  request: string;
  status: NodeStatus;
  /** Every model that answered this node's calls, in order of first use. */
  models: string[];
  calls: number;
  tokens: TokenCounts;
  /** USD; null while no call has a known price. */
  costUsd: number | null;
  startedAt: number;
  endedAt?: number;
  toolCalls: ToolCallNode[];
  /** The node's complete texts, one per model step. */
  messages: string[];
  /** Text being written now (live only; replaced by the step's message when it is stored). */
  streaming: string;
  thinking: string[];
  /** The delegation's result as the parent received it. */
  output?: string;
  children: string[];
}

export interface RouteChoice {
  route: string;
  reason: string;
  source: string;
}

export interface TurnTree {
  turnId: string;
  syndicate: string;
  input: string;
  status: NodeStatus;
  route?: RouteChoice;
  nodes: Readonly<Record<string, AgentNode>>;
  /** Node ids by run (delegation id and agent): where each event goes. */
  runs: Readonly<Record<string, string>>;
  /** The turn-end's output: the answer, or the question of an input-required turn. */
  output?: string;
  error?: string;
  warnings: string[];
  startedAt: number;
  endedAt?: number;
}

export interface TreeOptions {
  /** One call's cost in USD, undefined when its price is unknown. */
  costOf?: (provider: string, model: string, tokens: TokenCounts) => number | undefined;
}

export const ROOT = 'root';

const NO_TOKENS: TokenCounts = { input: 0, output: 0, reasoning: 0, cachedInput: 0 };

function newNode(id: string, agent: string, kind: NodeKind, request: string, at: number): AgentNode {
  return { id, agent, kind, request, status: 'running', models: [], calls: 0, tokens: NO_TOKENS, costUsd: null, startedAt: at, toolCalls: [], messages: [], streaming: '', thinking: [], children: [] };
}

function emptyTree(event: TurnEvent): TurnTree {
  const syndicate = event.type === 'turn-start' ? event.syndicate : '';
  const input = event.type === 'turn-start' ? event.input : '';
  return { turnId: event.turnId, syndicate, input, status: 'running', nodes: { [ROOT]: newNode(ROOT, event.agent, 'orchestrator', input, event.at) }, runs: {}, warnings: [], startedAt: event.at };
}

/** Runs are told apart by the delegation that started them: a routed specialist shares its dispatcher's. */
function runKey(delegationId: string | undefined, agent: string): string {
  return `${delegationId ?? ''}|${agent}`;
}

/** The node an event belongs to, by its run; a run first seen mid-turn (a partial transcript) hangs under the root. */
function nodeIdOf(tree: TurnTree, event: TurnEvent): string {
  if (event.delegationId === undefined && event.agent === tree.nodes[ROOT]!.agent) return ROOT;
  return tree.runs[runKey(event.delegationId, event.agent)] ?? event.delegationId ?? `route:${event.agent}`;
}

function withRun(tree: TurnTree, delegationId: string | undefined, agent: string, id: string): TurnTree {
  return { ...tree, runs: { ...tree.runs, [runKey(delegationId, agent)]: id } };
}

function withNode(tree: TurnTree, node: AgentNode): TurnTree {
  return { ...tree, nodes: { ...tree.nodes, [node.id]: node } };
}

function addChild(tree: TurnTree, parentId: string, child: AgentNode): TurnTree {
  const parent = tree.nodes[parentId]!;
  const next = withNode(tree, child);
  return parent.children.includes(child.id) ? next : withNode(next, { ...parent, children: [...parent.children, child.id] });
}

function updateToolCall(node: AgentNode, callId: string, change: Partial<ToolCallNode>): AgentNode {
  return { ...node, toolCalls: node.toolCalls.map((call) => (call.callId === callId ? { ...call, ...change } : call)) };
}

/** A tool call still open when its turn ends will never answer. */
function abandoned(call: ToolCallNode): ToolCallNode {
  return call.status === 'running' ? { ...call, status: 'cancelled' } : call;
}

/** Every node still running takes the turn's final status (cancelled, failed, input-required); its open tool calls end cancelled. */
function settle(tree: TurnTree, status: NodeStatus, at: number): TurnTree {
  const nodes: Record<string, AgentNode> = {};
  for (const [id, node] of Object.entries(tree.nodes)) {
    const ended = node.status === 'running' ? { ...node, status, endedAt: at, streaming: '' } : node;
    nodes[id] = ended.toolCalls.some((call) => call.status === 'running') ? { ...ended, toolCalls: ended.toolCalls.map(abandoned) } : ended;
  }
  return { ...tree, nodes };
}

/** The tree after one more event of its turn; undefined starts a new turn's tree. */
export function reduceTree(current: TurnTree | undefined, event: TurnEvent, options: TreeOptions = {}): TurnTree {
  let tree = current ?? emptyTree(event);
  // Only what is stored after a turn's end (a withdrawn question, warnings) still changes it.
  if (tree.status !== 'running' && event.type !== 'question-withdrawn' && event.type !== 'warning') return tree;
  const id = nodeIdOf(tree, event);
  // Events stored before delegations carried their kind, and runs whose start is not in a partial transcript, show as subagents.
  if (tree.nodes[id] === undefined) tree = addChild(tree, ROOT, newNode(id, event.agent, 'subagent', '', event.at));
  const node = tree.nodes[id]!;
  switch (event.type) {
    case 'turn-start':
      return { ...tree, syndicate: event.syndicate, input: event.input, nodes: { ...tree.nodes, [ROOT]: { ...tree.nodes[ROOT]!, request: event.input } } };
    case 'route': {
      const child = `route:${event.route}`;
      const routed = addChild(withRun(tree, event.delegationId, event.route, child), id, newNode(child, event.route, event.kind ?? 'subagent', tree.input, event.at));
      return { ...routed, route: { route: event.route, reason: event.reason, source: event.source } };
    }
    case 'delegation-start':
      return addChild(withRun(tree, event.callId, event.to, event.callId), node.id, newNode(event.callId, event.to, event.kind ?? 'subagent', event.request, event.at));
    case 'delegation-end': {
      const child = tree.nodes[event.callId] ?? newNode(event.callId, event.to, 'subagent', '', event.at);
      return addChild(tree, node.id, { ...child, status: event.isError ? 'failed' : 'completed', output: event.output, endedAt: event.at, streaming: '' });
    }
    case 'tool-call': {
      const call: ToolCallNode = { callId: event.callId, tool: event.tool, input: event.input, status: 'running', ...(event.parentCallId === undefined ? {} : { parentCallId: event.parentCallId }) };
      return withNode(tree, { ...node, toolCalls: [...node.toolCalls, call] });
    }
    case 'tool-result':
      return withNode(tree, updateToolCall(node, event.callId, { status: event.isError ? 'failed' : 'completed', output: event.output }));
    case 'text-delta':
      return withNode(tree, { ...node, streaming: node.streaming + event.delta });
    case 'message':
      return withNode(tree, { ...node, messages: [...node.messages, event.text], streaming: '' });
    case 'thinking':
      return withNode(tree, { ...node, thinking: [...node.thinking, event.text] });
    case 'usage': {
      const tokens = { input: node.tokens.input + event.inputTokens, output: node.tokens.output + event.outputTokens, reasoning: node.tokens.reasoning + event.reasoningTokens, cachedInput: node.tokens.cachedInput + event.cachedInputTokens };
      const cost = options.costOf?.(event.provider, event.model, { input: event.inputTokens, output: event.outputTokens, reasoning: event.reasoningTokens, cachedInput: event.cachedInputTokens });
      const models = node.models.includes(event.model) ? node.models : [...node.models, event.model];
      return withNode(tree, { ...node, tokens, models, calls: node.calls + 1, costUsd: cost === undefined ? node.costUsd : (node.costUsd ?? 0) + cost });
    }
    case 'warning':
      return { ...tree, warnings: [...tree.warnings, event.message] };
    case 'error':
      return { ...tree, error: event.message };
    case 'question-withdrawn':
      return { ...tree, warnings: [...tree.warnings, 'The question was withdrawn: the next message is not its answer.'] };
    case 'turn-end': {
      const ended = settle(tree, event.status, event.at);
      return { ...ended, status: event.status, output: event.output, endedAt: event.at, ...(event.error === undefined ? {} : { error: event.error }) };
    }
    default:
      return tree;
  }
}

/** A session's stored events, one tree per turn, in order. */
export function foldTurns(events: readonly TurnEvent[], options: TreeOptions = {}): TurnTree[] {
  const trees: TurnTree[] = [];
  for (const event of events) {
    const last = trees.at(-1);
    if (last === undefined || last.turnId !== event.turnId) trees.push(reduceTree(undefined, event, options));
    else trees[trees.length - 1] = reduceTree(last, event, options);
  }
  return trees;
}

/** The root's node first, then depth first in the order the delegations started. */
export function walk(tree: TurnTree, visit: (node: AgentNode, depth: number) => void, id: string = ROOT, depth = 0): void {
  const node = tree.nodes[id];
  if (!node) return;
  visit(node, depth);
  for (const child of node.children) walk(tree, visit, child, depth + 1);
}
