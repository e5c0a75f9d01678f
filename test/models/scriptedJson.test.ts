import type { JSONSchema7 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelContext } from '../../src/models/context.js';
import { createScriptedModel } from '../../src/models/scripted/createScriptedModel.js';
import { textOf, userPrompt } from './helpers.js';

async function answerJson(context: ModelContext, schema: JSONSchema7 | undefined, message: string): Promise<unknown> {
  const result = await createScriptedModel(context).doGenerate({
    prompt: userPrompt(message),
    responseFormat: { type: 'json', schema },
  });
  return JSON.parse(textOf(result.content));
}

const leaf: ModelContext = { agentName: 'Planner', subagents: [] };

describe('scripted model JSON output', () => {
  it.each<[string, JSONSchema7]>([
    [
      'an object with required and optional fields',
      {
        type: 'object',
        properties: { title: { type: 'string' }, done: { type: 'boolean' }, note: { type: 'string' } },
        required: ['title', 'done'],
        additionalProperties: false,
      },
    ],
    ['an integer range', { type: 'integer', minimum: 1, maximum: 10 }],
    ['an exclusive number range', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.2 }],
    ['a negative upper bound', { type: 'integer', maximum: -3 }],
    ['an array with minItems', { type: 'array', items: { type: 'string' }, minItems: 3 }],
    ['an enum', { type: 'string', enum: ['low', 'medium', 'high'] }],
    ['a const', { const: 'fixed' }],
    ['a nullable type', { type: ['null', 'string'] }],
    ['an anyOf', { anyOf: [{ type: 'number', minimum: 5 }, { type: 'string' }] }],
    ['a string with length limits', { type: 'string', minLength: 80, maxLength: 90 }],
    [
      'nested objects and arrays',
      {
        type: 'object',
        properties: {
          steps: {
            type: 'array',
            minItems: 2,
            items: {
              type: 'object',
              properties: { order: { type: 'integer', minimum: 0 }, action: { type: 'string' }, owner: { type: ['string', 'null'] } },
              required: ['order', 'action', 'owner'],
            },
          },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
        },
        required: ['steps', 'confidence'],
      },
    ],
    [
      'a recursive schema',
      {
        type: 'object',
        properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
        required: ['label', 'children'],
      },
    ],
  ])('returns a valid instance of %s', async (_name, schema) => {
    const value = await answerJson(leaf, schema, 'Plan the launch');
    expect(z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema).safeParse(value).error).toBeUndefined();
  });

  it('derives strings from the agent name and the input', async () => {
    const value = await answerJson(leaf, { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] }, 'Plan the launch');
    expect(value).toEqual({ summary: 'summary from Planner on "Plan the launch"' });
  });

  it('returns JSON even when no schema is given', async () => {
    expect(await answerJson(leaf, undefined, 'Plan the launch')).toEqual({ answer: expect.stringContaining('Plan the launch') });
  });
});

const classifier: ModelContext = {
  agentName: 'Router',
  subagents: [],
  classifier: {
    routeKey: 'route',
    reasonKey: 'reason',
    routes: [
      { name: 'General', description: 'Anything else' },
      { name: 'Billing', description: 'Refunds, invoices and payment problems' },
      { name: 'Tech', description: 'Crashes, errors and login problems' },
    ],
  },
};

describe('scripted classifier', () => {
  it('routes to the route sharing the most words and names them in the reason', async () => {
    expect(await answerJson(classifier, undefined, 'I need a refund for a wrong invoice')).toEqual({
      route: 'Billing',
      reason: 'shares the words "refund", "invoice" with Billing',
    });
  });

  it('classifies only the text after the message marker', async () => {
    const prompt = 'Routes: Billing handles refunds.\n--- MESSAGE TO CLASSIFY ---\nThe app crashes at login';
    expect(await answerJson(classifier, undefined, prompt)).toMatchObject({ route: 'Tech', reason: 'shares the words "crashes", "login" with Tech' });
  });

  it('breaks ties in favour of the first declared route', async () => {
    expect(await answerJson(classifier, undefined, 'problems')).toMatchObject({ route: 'Billing' });
  });

  it('falls back to the first route and says there was no word overlap', async () => {
    expect(await answerJson(classifier, undefined, 'hello there')).toEqual({
      route: 'General',
      reason: 'no word overlap with any route; defaulting to General',
    });
  });

  it('uses the configured route and reason keys inside the output schema', async () => {
    const context: ModelContext = { ...classifier, classifier: { ...classifier.classifier!, routeKey: 'specialist', reasonKey: 'why' } };
    const schema: JSONSchema7 = {
      type: 'object',
      properties: { specialist: { type: 'string' }, why: { type: 'string' }, urgent: { type: 'boolean' } },
      required: ['specialist', 'why', 'urgent'],
    };
    expect(await answerJson(context, schema, 'my login fails')).toEqual({
      specialist: 'Tech',
      why: 'shares the word "login" with Tech',
      urgent: true,
    });
  });
});
