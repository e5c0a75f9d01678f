import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/loadSyndicate.js';
import { compileSyndicate } from '../../src/runtime/compileSyndicate.js';
import { agent, collect, compile, ofType, recordCalls, turnEnd, type ModelCall } from './fixtures.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');

const council = agent('Moderator', { subagents: [agent('Advocate'), agent('Skeptic')] });

describe('delegation', () => {
  it('consults each subagent once, in declared order, passing the user message', async () => {
    const events = await collect(compile(council), { input: 'We should adopt a four-day week.' });

    const starts = ofType(events, 'delegation-start');
    expect(starts.map((e) => [e.agent, e.to, e.request])).toEqual([
      ['Moderator', 'Advocate', 'We should adopt a four-day week.'],
      ['Moderator', 'Skeptic', 'We should adopt a four-day week.'],
    ]);
  });

  it('answers by quoting what each subagent returned', async () => {
    const events = await collect(compile(council), { input: 'We should adopt a four-day week.' });

    const answers = ofType(events, 'delegation-end').map((e) => e.output);
    const end = turnEnd(events);
    expect(end.status).toBe('completed');
    for (const answer of answers) expect(end.output).toContain(answer);
  });

  it('runs a subagent at one level deeper than its parent', async () => {
    const tree = agent('Chair', { subagents: [agent('Council', { subagents: [agent('Advocate')] })] });

    const events = await collect(compile(tree), { input: 'Open a second office.' });

    const advocateMessage = ofType(events, 'message').find((e) => e.agent === 'Advocate');
    expect(advocateMessage?.depth).toBe(2);
    expect(ofType(events, 'delegation-start').map((e) => `${e.agent}->${e.to}`)).toEqual(['Chair->Council', 'Council->Advocate']);
  });

  it('says what each delegation goes to: a syndicate mounted with yaml_reference, a subagent of it, or a remote A2A agent', async () => {
    const boardroom = compileSyndicate(loadSyndicate(join(EXAMPLES, 'boardroom.yaml')), { offline: true });
    const remote = compile(agent('Chair', { subagents: [agent('Weather', { description: 'Forecasts.', instruction: '', remote: { cardUrl: 'https://weather.example.com', authEnv: undefined } })] }));

    const mounted = await collect(boardroom, { input: 'A three-day offsite in Lisbon for 4,800.' });
    const called = await collect(remote, { input: 'Weather in Lyon?' });

    expect(ofType(mounted, 'delegation-start').map((e) => [e.to, e.kind])).toEqual([
      ['Council', 'syndicate'],
      ['Advocate', 'subagent'],
      ['Skeptic', 'subagent'],
      ['Treasurer', 'syndicate'],
    ]);
    expect(ofType(called, 'delegation-start').map((e) => [e.to, e.kind])).toEqual([['Weather', 'remote']]);
  });

  it('returns the last delegated answer with a warning when the orchestrator ends empty', async () => {
    const root = agent('Moderator', {
      subagents: [agent('Advocate')],
      script: [{ tool_calls: [{ tool: 'Advocate', args: { request: 'argue for it' } }] }, { reply: 'Advocate' }],
    });

    const events = await collect(compile(root), { input: 'Should we?' });

    const delegated = ofType(events, 'delegation-end')[0]?.output;
    expect(turnEnd(events).output).toBe(delegated);
    expect(ofType(events, 'warning').map((e) => e.message).join()).toContain('last delegated answer');
  });

  it('gives a failing subagent’s error to the parent as a result, and the turn goes on', async () => {
    const root = agent('Moderator', { subagents: [agent('Advocate', { script: [{ error: 'server' }] })] });

    const events = await collect(compile(root), { input: 'Should we?', retry: { maxRetries: 0 } });

    const end = ofType(events, 'delegation-end')[0];
    expect(end?.isError).toBe(true);
    expect(end?.output).toContain('Advocate failed');
    expect(turnEnd(events).status).toBe('completed');
  });

  it('puts the per-turn date into instructions each turn, not once at load', async () => {
    const calls: ModelCall[] = [];
    const compiled = compile(agent('Clock', { instruction: 'Today is {{current_date}}.' }), { resolveModel: recordCalls(calls) });

    await collect(compiled, { input: 'hi', now: () => new Date('2026-03-04T10:00:00Z') });
    await collect(compiled, { input: 'hi', now: () => new Date('2026-03-05T10:00:00Z') });

    expect(calls.map((call) => call.options.prompt[0]?.content)).toEqual(['Today is 2026-03-04.', 'Today is 2026-03-05.']);
  });
});

describe('stream: false', () => {
  it('produces the same turn as streaming, with each step’s text as one delta', async () => {
    const streamed = await collect(compile(council), { input: 'Open a second office.' });
    const whole = await collect(compile(council), { input: 'Open a second office.', stream: false });

    const withoutDeltas = (events: typeof streamed) => events.filter((e) => e.type !== 'text-delta').map(({ type, agent }) => `${agent}:${type}`);
    expect(withoutDeltas(whole)).toEqual(withoutDeltas(streamed));
    expect(turnEnd(whole).output).toBe(turnEnd(streamed).output);
    expect(ofType(whole, 'text-delta').length).toBeLessThan(ofType(streamed, 'text-delta').length);
  });
});

describe('a model that cannot run as configured', () => {
  it('ends the turn with an error naming the missing key and the --offline alternative', async () => {
    const root = agent('Moderator', { subagents: [agent('Advocate', { model: 'claude-sonnet-4-5' })] });

    const events = await collect(compile(root, { env: {} }), { input: 'Should we?' });

    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'model_config' });
    expect(ofType(events, 'error')[0]?.message).toMatch(/ANTHROPIC_API_KEY.*--offline/);
    expect(turnEnd(events).status).toBe('failed');
  });
});

describe('usage events', () => {
  it('records one usage event per model call, failed calls included', async () => {
    const root = agent('Moderator', { subagents: [agent('Advocate', { script: [{ error: 'server' }] }), agent('Skeptic')] });

    const events = await collect(compile(root), { input: 'Should we?', retry: { maxRetries: 0 } });

    const usage = ofType(events, 'usage').map((e) => `${e.agent}:${e.outcome}`);
    expect(usage).toEqual(['Moderator:ok', 'Advocate:error', 'Moderator:ok', 'Skeptic:ok', 'Moderator:ok']);
    expect(ofType(events, 'usage').every((e) => e.latencyMs >= 0 && e.provider === 'scripted')).toBe(true);
  });
});

describe('observers', () => {
  it('see every event of the turn in order', async () => {
    const seen: string[] = [];

    const events = await collect(compile(council), { input: 'Should we?', observers: [(event) => seen.push(event.type)] });

    expect(seen).toEqual(events.map((e) => e.type));
  });

  it('are detached with a warning when they throw, and the turn goes on', async () => {
    const events = await collect(compile(council), {
      input: 'Should we?',
      observers: [
        () => {
          throw new Error('exporter down');
        },
      ],
    });

    expect(ofType(events, 'warning').map((e) => e.message)).toEqual([expect.stringContaining('exporter down')]);
    expect(turnEnd(events).status).toBe('completed');
  });
});
