import { delegateKindNote, type TurnEvent } from '../core/events.js';
import type { Style } from './terminal.js';
import { formatTime, preview } from './text.js';

// Turns the event stream into what a person reads. 'live' streams the answering agent's text as it
// arrives and previews what subagents said; 'transcript' replays stored events, where text deltas
// are gone and every agent's complete messages are shown instead.

type TraceMode = 'live' | 'transcript';

export interface EventPrinter {
  print(event: TurnEvent): void;
  /** False while streamed text is mid-line, where a spinner would overwrite it. */
  readonly atLineStart: boolean;
}

type Write = (text: string) => void;

const REQUEST_PREVIEW = 80;
const ANSWER_PREVIEW = 160;
const ARGS_PREVIEW = 120;
const RESULT_PREVIEW = 160;
const THINKING_PREVIEW = 160;

/** A failure's output already says who failed (that is what the model reads): the trace says it once. */
function withoutPrefix(output: string, prefix: string): string {
  return output.startsWith(prefix) ? output.slice(prefix.length) : output;
}

export function createJsonPrinter(write: Write): EventPrinter {
  return {
    atLineStart: true,
    print(event) {
      write(`${JSON.stringify(event)}\n`);
    },
  };
}

export function createTracePrinter(write: Write, style: Style, mode: TraceMode): EventPrinter {
  let atLineStart = true;
  // The agent whose text is being written under its label; any other line ends the block.
  let speaker: string | undefined;
  // The agent last announced as thinking, so a stream of thinking deltas is announced once.
  let thinker: string | undefined;
  // Who answers the user: the root, or whoever a dispatching answerer routes the turn to.
  let answering = { agent: '', depth: 0 };
  let turns = 0;
  let linesInTurn = 0;
  // Code mode: how much deeper than its depth each delegated run prints, by its delegation's callId.
  // A script's calls print one level under its execute_code call, and so do the runs they start.
  const nestedRuns = new Map<string, number>();
  const nestingOf = (event: TurnEvent): number => ('parentCallId' in event && event.parentCallId !== undefined ? 1 : 0) + (event.delegationId === undefined ? 0 : (nestedRuns.get(event.delegationId) ?? 0));

  const indentOf = (depth: number): string => '  '.repeat(depth);
  const endLine = (): void => {
    if (atLineStart) return;
    write('\n');
    atLineStart = true;
  };
  const line = (depth: number, text: string): void => {
    endLine();
    write(`${indentOf(depth)}${text}\n`);
    speaker = undefined;
    thinker = undefined;
    linesInTurn++;
  };
  const writeText = (indent: string, text: string): void => {
    text.split('\n').forEach((part, index) => {
      if (index > 0) {
        write('\n');
        atLineStart = true;
      }
      if (part === '') return;
      write(atLineStart ? `${indent}${part}` : part);
      atLineStart = false;
    });
  };
  const speak = (event: TurnEvent, depth: number, text: string): void => {
    if (speaker !== event.agent) {
      // The live answer stands apart from the trace above it.
      if (mode === 'live' && linesInTurn > 0) line(0, '');
      line(depth, style.bold(`${event.agent}:`));
      speaker = event.agent;
    }
    writeText(indentOf(depth), text);
  };
  const isAnswering = (event: TurnEvent): boolean => event.agent === answering.agent && event.depth === answering.depth;

  const print = (event: TurnEvent): void => {
    const nesting = nestingOf(event);
    const depth = event.depth + nesting;
    switch (event.type) {
      case 'turn-start':
        answering = { agent: event.agent, depth };
        linesInTurn = 0;
        // A chat prints many turns: each answer is labelled, even when the same agent gave the last one.
        speaker = undefined;
        thinker = undefined;
        if (mode === 'transcript') {
          turns++;
          if (turns > 1) line(0, '');
          line(0, style.dim(`── Turn ${turns} · ${formatTime(event.at)} ──`));
          line(0, `${style.bold('You:')} ${event.input}`);
        }
        return;
      case 'route':
        if (isAnswering(event)) answering = { agent: event.route, depth: depth + 1 };
        line(depth, `${style.cyan(`Routed to ${event.route}${delegateKindNote(event.kind)}`)} — ${event.reason}`);
        return;
      case 'delegation-start':
        if (nesting > 0) nestedRuns.set(event.callId, nesting);
        line(depth, `→ ${event.agent} consults ${event.to}${delegateKindNote(event.kind)}${style.dim(`: "${preview(event.request, REQUEST_PREVIEW)}"`)}`);
        return;
      case 'delegation-end':
        if (event.isError) line(depth, `${style.red(`← ${event.to} failed`)}: ${preview(withoutPrefix(event.output, `${event.to} failed: `), ANSWER_PREVIEW)}`);
        else line(depth, `← ${event.to} answered${mode === 'live' ? style.dim(`: ${preview(event.output, ANSWER_PREVIEW)}`) : ''}`);
        return;
      case 'tool-call':
        line(depth, `⚙ ${event.agent} calls ${event.tool} ${style.dim(preview(event.input, ARGS_PREVIEW))}`);
        return;
      case 'tool-result':
        if (event.isError) line(depth, `${style.red(`↳ ${event.tool} failed`)}: ${preview(typeof event.output === 'string' ? withoutPrefix(event.output, `${event.tool} failed: `) : event.output, RESULT_PREVIEW)}`);
        else line(depth, `↳ ${event.tool}: ${preview(event.output, RESULT_PREVIEW)}`);
        return;
      case 'text-delta':
        if (mode === 'live' && isAnswering(event)) speak(event, depth, event.delta);
        return;
      case 'message':
        if (mode === 'transcript') speak(event, depth, event.text);
        else if (isAnswering(event)) endLine();
        return;
      case 'thinking-delta':
        // Live, thinking is announced as it starts; the complete `thinking` event comes only after the step's text.
        if (mode === 'live' && thinker !== event.agent) {
          line(depth, style.dim(`${event.agent} is thinking…`));
          thinker = event.agent;
        }
        return;
      case 'thinking':
        if (mode === 'transcript') line(depth, style.dim(`(${event.agent} thought) ${preview(event.text, THINKING_PREVIEW)}`));
        return;
      case 'status':
        line(depth, style.dim(`… ${event.message}`));
        return;
      case 'warning':
        line(depth, style.yellow(`⚠ ${event.message}`));
        return;
      case 'question-withdrawn':
        line(depth, style.yellow('■ Question withdrawn: its task was cancelled before it was answered.'));
        return;
      case 'error':
        line(depth, event.code === 'cancelled' ? style.yellow('■ Turn cancelled.') : style.red(`✖ ${event.message}`));
        return;
      case 'turn-end':
        endLine();
        // Live, the question was never streamed as text; a transcript shows it as the agent's message.
        if (mode === 'live' && event.status === 'input-required') line(0, `${style.cyan('? Waiting for your answer:')} ${event.output}`);
        return;
      case 'usage':
        return;
      case 'skill-activated':
        // The activate_skill result line above names the skill and its hash.
        return;
    }
  };

  return {
    print,
    get atLineStart() {
      return atLineStart;
    },
  };
}
