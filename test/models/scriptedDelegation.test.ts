import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/models/scripted/createScriptedModel.js';
import { appendToolRound, delegationTools, textOf, toolCallsOf, userPrompt } from './helpers.js';

const QUESTION = 'Should our team adopt a four-day work week?';
const subagents = [
  { name: 'Advocate', description: 'Argues for' },
  { name: 'Skeptic', description: 'Argues against' },
];

function moderator() {
  return createScriptedModel({ agentName: 'Moderator', subagents });
}

describe('scripted model delegation', () => {
  it('consults the first declared subagent first, passing the user message verbatim', async () => {
    const result = await moderator().doGenerate({ prompt: userPrompt(QUESTION), tools: delegationTools(['Skeptic', 'Advocate']) });
    const calls = toolCallsOf(result.content);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.toolName).toBe('Advocate');
    expect(JSON.parse(calls[0]?.input ?? '')).toEqual({ request: QUESTION });
    expect(result.finishReason.unified).toBe('tool-calls');
  });

  it('consults each subagent once, in declared order, over a multi-step conversation', async () => {
    const model = moderator();
    const tools = delegationTools(['Advocate', 'Skeptic']);
    const prompt = userPrompt(QUESTION);
    const consulted: string[] = [];
    for (let step = 0; step < 5; step++) {
      const { content } = await model.doGenerate({ prompt, tools });
      const calls = toolCallsOf(content);
      if (calls.length === 0) break;
      consulted.push(...calls.map((call) => call.toolName));
      appendToolRound(prompt, content, (name) => `${name} says hi`);
    }
    expect(consulted).toEqual(['Advocate', 'Skeptic']);
  });

  it('gives every tool call a distinct id', async () => {
    const model = moderator();
    const tools = delegationTools(['Advocate', 'Skeptic']);
    const prompt = userPrompt(QUESTION);
    const first = await model.doGenerate({ prompt, tools });
    appendToolRound(prompt, first.content, () => 'ok');
    const second = await model.doGenerate({ prompt, tools });
    expect(toolCallsOf(first.content)[0]?.toolCallId).not.toBe(toolCallsOf(second.content)[0]?.toolCallId);
  });

  it('answers by quoting each returned result once all subagents were consulted', async () => {
    const model = moderator();
    const tools = delegationTools(['Advocate', 'Skeptic']);
    const prompt = userPrompt(QUESTION);
    for (let step = 0; step < 2; step++) {
      const { content } = await model.doGenerate({ prompt, tools });
      appendToolRound(prompt, content, (name) => `${name} thinks so.`);
    }
    const final = await model.doGenerate({ prompt, tools });
    expect(textOf(final.content)).toBe('Consulted Advocate and Skeptic.\n\nAdvocate: Advocate thinks so.\n\nSkeptic: Skeptic thinks so.');
    expect(final.finishReason.unified).toBe('stop');
  });

  it('quotes JSON tool results as JSON text', async () => {
    const model = createScriptedModel({ agentName: 'Moderator', subagents: [subagents[0]!] });
    const prompt = userPrompt(QUESTION);
    prompt.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'Advocate', input: { request: QUESTION } }] });
    prompt.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'Advocate', output: { type: 'json', value: { verdict: 'yes' } } }] });
    const final = await model.doGenerate({ prompt, tools: delegationTools(['Advocate']) });
    expect(textOf(final.content)).toBe('Consulted Advocate.\n\nAdvocate: {"verdict":"yes"}');
  });

  it('starts over for a new user message in the same conversation', async () => {
    const model = moderator();
    const tools = delegationTools(['Advocate', 'Skeptic']);
    const prompt = userPrompt(QUESTION);
    for (let step = 0; step < 3; step++) {
      const { content } = await model.doGenerate({ prompt, tools });
      if (toolCallsOf(content).length > 0) appendToolRound(prompt, content, () => 'ok');
      else prompt.push({ role: 'assistant', content: [{ type: 'text', text: textOf(content) }] });
    }
    prompt.push({ role: 'user', content: [{ type: 'text', text: 'And a three-day week?' }] });
    const next = await model.doGenerate({ prompt, tools });
    expect(toolCallsOf(next.content)[0]).toMatchObject({ toolName: 'Advocate', input: '{"request":"And a three-day week?"}' });
  });

  it('only consults subagents that are offered as tools', async () => {
    const result = await moderator().doGenerate({ prompt: userPrompt(QUESTION), tools: delegationTools(['Skeptic']) });
    expect(toolCallsOf(result.content)[0]?.toolName).toBe('Skeptic');
  });

  it('answers as a leaf that repeats its input when no delegation tool is offered', async () => {
    const result = await createScriptedModel({ agentName: 'Advocate', subagents: [] }).doGenerate({ prompt: userPrompt(QUESTION) });
    expect(textOf(result.content)).toMatch(/^\[Advocate\] On "Should our team adopt a four-day work week\?": \S/);
  });

  it('gives the same leaf answer to the same input', async () => {
    const answer = async () =>
      textOf((await createScriptedModel({ agentName: 'Advocate', subagents: [] }).doGenerate({ prompt: userPrompt(QUESTION) })).content);
    expect(await answer()).toBe(await answer());
  });
});
