import type { TurnTree } from '../tree/delegationTree.js';
import { Markdown } from './Markdown.js';

// A session's turns as a conversation: each message, then its answer, question or failure.
// Picking a turn shows its delegation tree.

export function Conversation({ turns, selected, onSelect }: { turns: TurnTree[]; selected: number; onSelect(index: number): void }) {
  return (
    <ol class="conversation">
      {turns.map((turn, index) => (
        <li key={turn.turnId} class={`turn ${index === selected ? 'selected' : ''}`} data-status={turn.status} onClick={() => onSelect(index)}>
          <div class="user">{turn.input}</div>
          <TurnOutcome turn={turn} />
        </li>
      ))}
    </ol>
  );
}

function TurnOutcome({ turn }: { turn: TurnTree }) {
  if (turn.status === 'running') {
    const streaming = Object.values(turn.nodes).find((node) => node.streaming)?.streaming;
    return <div class="answer pending">{streaming ?? 'Working…'}</div>;
  }
  if (turn.status === 'input-required') return <div class="question">Question: {turn.output}</div>;
  if (turn.status === 'cancelled') return <div class="failure">Cancelled. {turn.output && <Markdown text={turn.output} />}</div>;
  if (turn.status === 'failed') return <div class="failure">The turn failed: {turn.error ?? 'no reason was given'}</div>;
  return (
    <div class="answer">
      <Markdown text={turn.output ?? ''} />
    </div>
  );
}
