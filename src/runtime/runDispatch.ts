import { CLASSIFY_MARKER } from '../models/context.js';
import { callModel } from './callModel.js';
import { findRoute } from '../config/routes.js';
import type { CompiledAgent, CompiledDispatch } from './compileSyndicate.js';
import { errorMessage } from '../core/errors.js';
import type { TurnEventOf } from '../core/events.js';
import type { TurnRecord } from './projectTranscript.js';
import { parseJsonReply } from '../models/jsonReply.js';
import type { TurnContext } from './turnContext.js';
import { systemPrompt } from './runAgent.js';
import type { EmbeddingRouter, RouteMatch } from './embeddingRouter.js';

// PLAN-DISPATCH: a classifier names one specialist and code hands the turn over; the
// specialist answers the user itself (no relay turn). Fail-static: whatever goes wrong
// with the classifier, the turn goes to default_route and still answers.

type RouteSource = TurnEventOf<'route'>['source'];

interface RouteChoice {
  agent: CompiledAgent;
  reason: string;
  source: RouteSource;
}

const DIGEST_TURNS = 6;
const DIGEST_CHARS_PER_ENTRY = 280;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > DIGEST_CHARS_PER_ENTRY ? `${flat.slice(0, DIGEST_CHARS_PER_ENTRY - 1)}…` : flat;
}

/** Both sides of the recent conversation, compact: enough context for follow-ups like "and the other one?". */
function conversationDigest(history: readonly TurnRecord[]): string {
  const lines: string[] = [];
  for (const turn of history.slice(-DIGEST_TURNS)) {
    lines.push(`User: ${clip(turn.input)}`);
    const answer = turn.entries[turn.entries.length - 1];
    if (answer) lines.push(`${answer.agent}: ${clip(answer.text)}`);
  }
  return lines.length ? `Conversation so far:\n${lines.join('\n')}\n\n` : '';
}

function fallback(dispatch: CompiledDispatch, why: string): RouteChoice {
  return { agent: dispatch.defaultRoute, reason: `${why}; using the default route`, source: 'fallback' };
}

function isOrHolds(agent: CompiledAgent, name: string): boolean {
  return agent.name === name || [...agent.subagents.values()].some((sub) => isOrHolds(sub, name));
}

/**
 * The last turn ended on a question from a route (or an agent under it): this message is the
 * user's answer, and goes back to that route, whatever its words would be classified as.
 */
function continuation(turn: TurnContext, agent: CompiledAgent): RouteChoice | undefined {
  const asker = turn.history[turn.history.length - 1]?.awaiting;
  if (asker === undefined) return undefined;
  const route = [...agent.subagents.values()].find((sub) => isOrHolds(sub, asker));
  return route && { agent: route, reason: `answers the question ${asker} asked`, source: 'continuation' };
}

function routeOverride(dispatch: CompiledDispatch, input: string): RouteChoice | undefined {
  for (const override of dispatch.overrides) {
    override.regex.lastIndex = 0;
    if (override.regex.test(input)) {
      return { agent: override.route, reason: override.reason ?? `matches /${override.regex.source}/`, source: 'override' };
    }
  }
  return undefined;
}

async function classify(turn: TurnContext, agent: CompiledAgent, dispatch: CompiledDispatch, input: string, depth: number): Promise<RouteChoice> {
  const routes = [...agent.subagents.values()].map((sub) => `- ${sub.name}: ${sub.description}`).join('\n');
  const system = systemPrompt(turn, agent);
  system.content += `\n\nAvailable routes:\n${routes}\n\nReply with JSON only: {"${dispatch.routeKey}": "<route name>", "${dispatch.reasonKey}": "<one short sentence>"}.`;
  let text: string;
  try {
    const step = await callModel(turn, {
      agent,
      prompt: [system, { role: 'user', content: [{ type: 'text', text: `${conversationDigest(turn.history)}${CLASSIFY_MARKER}\n${input}` }] }],
      depth,
      withTools: false,
      responseFormat: { type: 'json', schema: dispatch.classifierSchema, name: 'route' },
      emitText: false,
    });
    text = step.text;
  } catch (error) {
    turn.signal.throwIfAborted();
    return fallback(dispatch, `the classifier failed (${errorMessage(error)})`);
  }
  const parsed = parseJsonReply(text);
  if (!parsed.ok) return fallback(dispatch, `the classifier's reply was unusable: ${parsed.problem}`);
  const payload = parsed.value as Record<string, unknown> | null;
  const route = typeof payload === 'object' && payload !== null ? payload[dispatch.routeKey] : undefined;
  if (typeof route !== 'string' || route.trim() === '') return fallback(dispatch, `the classifier named no route in "${dispatch.routeKey}"`);
  const name = findRoute(route, [...agent.subagents.keys()]);
  const chosen = name === undefined ? undefined : agent.subagents.get(name);
  if (!chosen) return fallback(dispatch, `the classifier named an unknown route '${route}'`);
  const reason = payload?.[dispatch.reasonKey];
  return { agent: chosen, reason: typeof reason === 'string' && reason.trim() ? reason.trim() : 'no reason given', source: 'classifier' };
}

async function routeByEmbedding(turn: TurnContext, dispatch: CompiledDispatch, router: EmbeddingRouter, agent: CompiledAgent, input: string): Promise<RouteChoice> {
  let match: RouteMatch;
  try {
    match = await router.closest(input, turn.signal);
  } catch (error) {
    turn.signal.throwIfAborted();
    return fallback(dispatch, `the embedding router failed (${errorMessage(error)})`);
  }
  const similarity = match.similarity.toFixed(2);
  if (match.similarity < router.minSimilarity) {
    return fallback(dispatch, `no route is close enough (best: ${match.route} at ${similarity}, minimum ${router.minSimilarity})`);
  }
  return { agent: agent.subagents.get(match.route)!, reason: `closest to ${match.route}'s description (similarity ${similarity})`, source: 'classifier' };
}

export async function runDispatch(
  turn: TurnContext,
  agent: CompiledAgent,
  input: string,
  depth: number,
  runSpecialist: (turn: TurnContext, agent: CompiledAgent, input: string, depth: number) => Promise<string>,
): Promise<string> {
  const dispatch = agent.dispatch;
  if (!dispatch) throw new Error(`${agent.name} has no dispatch block`);
  const choice =
    continuation(turn, agent) ??
    routeOverride(dispatch, input) ??
    (dispatch.router ? await routeByEmbedding(turn, dispatch, dispatch.router, agent, input) : await classify(turn, agent, dispatch, input, depth));
  turn.emit(agent.name, depth, { type: 'route', route: choice.agent.name, reason: choice.reason, source: choice.source, kind: choice.agent.kind });
  return runSpecialist(turn, choice.agent, input, depth + 1);
}
