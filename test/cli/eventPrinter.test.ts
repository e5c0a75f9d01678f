import { describe, expect, it } from 'vitest';
import { createTracePrinter } from '../../src/cli/eventPrinter.js';
import { createStyle } from '../../src/cli/terminal.js';
import type { TurnEvent } from '../../src/core/events.js';

// What a transcript shows of the events a turn leaves behind it.

describe('the transcript printer', () => {
  it('shows that a question was withdrawn, after the turn that asked it', () => {
    let out = '';
    const printer = createTracePrinter((text) => void (out += text), createStyle(false), 'transcript');
    const envelope = { turnId: 't', agent: 'Planner', depth: 0, at: 0 };
    const events: TurnEvent[] = [
      { ...envelope, type: 'turn-start', syndicate: 'Desk', input: 'Plan an offsite' },
      { ...envelope, type: 'message', text: 'Which city?' },
      { ...envelope, type: 'turn-end', status: 'input-required', output: 'Which city?' },
      { ...envelope, type: 'question-withdrawn' },
    ];

    for (const event of events) printer.print(event);

    expect(out).toContain('■ Question withdrawn: its task was cancelled before it was answered.\n');
  });
});

describe('the live printer', () => {
  it("says a failed tool's name and 'failed' once, though its output starts with them", () => {
    let out = '';
    const printer = createTracePrinter((text) => void (out += text), createStyle(false), 'live');
    const envelope = { turnId: 't', agent: 'Librarian', depth: 0, at: 0 };

    printer.print({ ...envelope, type: 'tool-result', tool: 'library_borrow_scroll', callId: 'c1', isError: true, output: 'library_borrow_scroll failed: S-102 is already borrowed by Ada' });

    expect(out).toBe('↳ library_borrow_scroll failed: S-102 is already borrowed by Ada\n');
  });

  it("labels every turn's answer with the agent's name, also when one agent answers twice in a row", () => {
    let out = '';
    const printer = createTracePrinter((text) => void (out += text), createStyle(false), 'live');
    const envelope = { turnId: 't', agent: 'Tutor', depth: 0, at: 0 };
    const turn = (input: string, answer: string): TurnEvent[] => [
      { ...envelope, type: 'turn-start', syndicate: 'Tutor', input },
      { ...envelope, type: 'text-delta', delta: answer },
      { ...envelope, type: 'message', text: answer },
      { ...envelope, type: 'turn-end', status: 'completed', output: answer },
    ];

    for (const event of [...turn('Hi', 'Hello.'), ...turn('Again', 'Hello again.')]) printer.print(event);

    expect(out).toBe('Tutor:\nHello.\nTutor:\nHello again.\n');
  });
});
