import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../../src/memory/facts/extractFacts.js';
import { extractionPrompt } from '../../../src/memory/facts/extractionPrompt.js';
import type { TranscriptTurn } from '../../../src/memory/facts/transcript.js';
import { createScriptedModel } from '../../../src/models/scripted/createScriptedModel.js';

const TURNS: TranscriptTurn[] = [
  { turnId: 't1', at: Date.UTC(2026, 2, 1), lines: [{ speaker: 'user', text: 'I run 5 km tomorrow.' }, { speaker: 'Coach', text: 'Good luck.' }], lastSeq: 2 },
];

const RUN = { text: 'The user runs 5 km on 2026-03-02.', tag: 'ACTION', date: '2026-03-02', source: 'user', keys: ['running'], turn: 't1' };
// A model that says nothing of what the fact is about leaves subject and attribute null.
const EXTRACTED = { ...RUN, subject: null, attribute: null };

function replying(text: string): MockLanguageModelV3 {
  const result: LanguageModelV3GenerateResult = {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
    warnings: [],
  };
  return new MockLanguageModelV3({ doGenerate: async () => result });
}

describe('fact extraction', () => {
  it('returns the facts a scripted model is told to extract', async () => {
    const model = createScriptedModel({ agentName: 'Memory', subagents: [], script: [{ match: '5 km tomorrow', json: { facts: [RUN] } }] });
    expect(await extractFacts({ model, turns: TURNS })).toEqual({ facts: [EXTRACTED], warnings: [] });
  });

  it('keeps the subject and attribute the model gives a fact', async () => {
    const fact = { ...RUN, subject: 'user', attribute: 'weekly running distance' };
    const model = createScriptedModel({ agentName: 'Memory', subagents: [], script: [{ match: '5 km tomorrow', json: { facts: [fact] } }] });
    expect(await extractFacts({ model, turns: TURNS })).toEqual({ facts: [fact], warnings: [] });
  });

  it('asks for JSON with the fact schema, the global prompt and the dated turns', async () => {
    const model = replying('{"facts": []}');
    await extractFacts({ model, turns: TURNS, rules: 'Keys are sports.' });
    const call = model.doGenerateCalls[0]!;
    expect(call.prompt).toEqual([
      { role: 'system', content: extractionPrompt('Keys are sports.') },
      { role: 'user', content: [{ type: 'text', text: '### Turn t1, 2026-03-01 (Sunday)\nuser: I run 5 km tomorrow.\nCoach: Good luck.' }] },
    ]);
    expect(call.responseFormat).toMatchObject({ type: 'json', name: 'memory_facts', schema: { type: 'object', required: ['facts'] } });
  });

  it('accepts JSON wrapped in a markdown fence', async () => {
    const { facts } = await extractFacts({ model: replying(`\`\`\`json\n${JSON.stringify({ facts: [RUN] })}\n\`\`\``), turns: TURNS });
    expect(facts).toEqual([EXTRACTED]);
  });

  it('fails, saying the turns stay queued, when the reply is not JSON', async () => {
    await expect(extractFacts({ model: replying('Sure! Here are the facts.'), turns: TURNS })).rejects.toThrow(
      /fact extraction with mock-provider\/mock-model-id did not answer JSON: .*the turns stay queued/,
    );
  });

  it('fails, naming the field, when the JSON does not match the fact schema', async () => {
    const reply = JSON.stringify({ facts: [{ ...RUN, tag: 'GOSSIP', keys: [] }] });
    await expect(extractFacts({ model: replying(reply), turns: TURNS })).rejects.toThrow(/facts\.0\.tag: .*facts\.0\.keys: /s);
  });

  it('drops, with a warning, a fact attributed to a turn it was not given', async () => {
    const turns = [...TURNS, { turnId: 't2', at: Date.UTC(2026, 2, 2), lines: [{ speaker: 'user', text: 'Done.' }], lastSeq: 4 }];
    const { facts, warnings } = await extractFacts({ model: replying(JSON.stringify({ facts: [{ ...RUN, turn: 't9' }] })), turns });
    expect(facts).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/attributed "The user runs 5 km on 2026-03-02\." to turn 't9', which it was not given/)]);
  });

  it('attributes a fact to the only turn it was given, whatever turn id the model wrote', async () => {
    const { facts, warnings } = await extractFacts({ model: replying(JSON.stringify({ facts: [{ ...RUN, turn: 'the first one' }] })), turns: TURNS });
    expect(facts).toEqual([EXTRACTED]);
    expect(warnings).toEqual([]);
  });
});
