import { describe, expect, it } from 'vitest';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { agent, collect, compile, ofType, turnEnd } from './fixtures.js';

const verdict: JSONSchema7 = {
  type: 'object',
  properties: { message: { type: 'string' }, confidence: { type: 'integer', minimum: 0, maximum: 100 } },
  required: ['message', 'confidence'],
  additionalProperties: false,
};

describe('outputSchema', () => {
  it('returns a valid instance of the schema', async () => {
    const events = await collect(compile(agent('Critic', { outputSchema: verdict })), { input: 'Review this draft.' });

    const output = JSON.parse(turnEnd(events).output);
    expect(typeof output.message).toBe('string');
    expect(Number.isInteger(output.confidence)).toBe(true);
  });

  it('works on an agent that also has subagents', async () => {
    const root = agent('Editor', { outputSchema: verdict, subagents: [agent('Drafter')] });

    const events = await collect(compile(root), { input: 'Explain tides.' });

    expect(ofType(events, 'delegation-end')).toHaveLength(1);
    expect(JSON.parse(turnEnd(events).output)).toHaveProperty('confidence');
  });

  it('repairs one malformed reply by asking again', async () => {
    const root = agent('Critic', { outputSchema: verdict, script: [{ error: 'malformed' }, { json: { message: 'fixed', confidence: 90 } }] });

    const events = await collect(compile(root), { input: 'Review.' });

    expect(ofType(events, 'warning')[0]?.message).toContain('Asking once for a repair');
    expect(JSON.parse(turnEnd(events).output)).toEqual({ message: 'fixed', confidence: 90 });
  });

  it('fails the turn with a clear error when the repair is also invalid', async () => {
    const root = agent('Critic', { outputSchema: verdict, script: [{ json: { message: 'x' } }, { json: { message: 'x', confidence: 'high' } }] });

    const events = await collect(compile(root), { input: 'Review.' });

    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'output_schema' });
    expect(ofType(events, 'error')[0]?.message).toContain('confidence');
    expect(turnEnd(events).status).toBe('failed');
  });
});
