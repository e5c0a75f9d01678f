import { describe, expect, it } from 'vitest';
import { createTracePrinter } from '../../src/cli/eventPrinter.js';
import { createStyle } from '../../src/cli/terminal.js';
import type { TurnEvent } from '../../src/core/events.js';
import { agent, collect, compile } from '../runtime/fixtures.js';

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

  it('says what a delegation or route went to when it is more than a subagent: a nested syndicate, a remote A2A agent', () => {
    let out = '';
    const printer = createTracePrinter((text) => void (out += text), createStyle(false), 'live');
    const envelope = { turnId: 't', agent: 'Chair', depth: 0, at: 0 };

    printer.print({ ...envelope, type: 'delegation-start', to: 'Council', request: 'Weigh it', callId: 'c1', kind: 'syndicate' });
    printer.print({ ...envelope, type: 'delegation-start', to: 'Partner', request: 'Ask them', callId: 'c2', kind: 'remote' });
    printer.print({ ...envelope, type: 'delegation-start', to: 'Scribe', request: 'Note it', callId: 'c3', kind: 'subagent' });
    printer.print({ ...envelope, type: 'route', route: 'Weather', reason: 'about the weather', source: 'override', kind: 'remote' });

    expect(out).toBe('→ Chair consults Council (nested syndicate): "Weigh it"\n→ Chair consults Partner (remote A2A agent): "Ask them"\n→ Chair consults Scribe: "Note it"\nRouted to Weather (remote A2A agent) — about the weather\n');
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

describe('the live printer in code mode', () => {
  it('shows the calls a script makes, and the runs they start, one level under its execute_code call', async () => {
    const code = "const split = await calculator({ expression: '4800 / 12' });\nreturn await Advisor({ request: 'Lisbon?' }) + split.result;";
    const root = agent('Planner', {
      codeMode: true,
      tools: ['calculator'],
      subagents: [agent('Advisor', { tools: ['calculator'], script: [{ tool_calls: [{ tool: 'calculator', args: { expression: '2 * 3' } }] }, { reply: 'Fine.' }] })],
      script: [{ tool_calls: [{ tool: 'execute_code', args: { code } }] }, { reply: 'Planned.' }],
    });
    const events = await collect(compile(root), { input: 'plan' });
    let out = '';
    const printer = createTracePrinter((text) => void (out += text), createStyle(false), 'live');

    for (const event of events) printer.print(event);

    const lines = out.split('\n');
    const at = (prefix: string): string => lines.find((text) => text.trimStart().startsWith(prefix)) ?? `(no line starting ${prefix})`;
    expect(at('⚙ Planner calls execute_code')).toMatch(/^⚙/);
    expect(at('⚙ Planner calls calculator')).toMatch(/^ {2}⚙/);
    expect(at('→ Planner consults Advisor')).toMatch(/^ {2}→/);
    expect(at('⚙ Advisor calls calculator')).toMatch(/^ {4}⚙/);
    expect(at('← Advisor answered')).toMatch(/^ {2}←/);
    expect(at('↳ execute_code')).toMatch(/^↳/);
  });
});
