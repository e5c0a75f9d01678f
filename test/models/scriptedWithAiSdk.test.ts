import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelContext } from '../../src/models/context.js';
import { createScriptedModel } from '../../src/models/scripted/createScriptedModel.js';

// The runtime drives models through the AI SDK, so the scripted model must behave under it.

const QUESTION = 'Should our team adopt a four-day work week?';
const moderator: ModelContext = {
  agentName: 'Moderator',
  subagents: [
    { name: 'Advocate', description: 'Argues for' },
    { name: 'Skeptic', description: 'Argues against' },
  ],
};

function subagentTools(): Record<string, ReturnType<typeof tool<{ request: string }, string>>> {
  const leafTool = (name: string) =>
    tool({
      description: `Ask ${name}`,
      inputSchema: z.object({ request: z.string() }),
      execute: async ({ request }) => {
        const result = await generateText({ model: createScriptedModel({ agentName: name, subagents: [] }), prompt: request });
        return result.text;
      },
    });
  return { Advocate: leafTool('Advocate'), Skeptic: leafTool('Skeptic') };
}

describe('scripted model under the AI SDK', () => {
  it('runs a full delegation turn with generateText', async () => {
    const result = await generateText({
      model: createScriptedModel(moderator),
      tools: subagentTools(),
      stopWhen: stepCountIs(5),
      prompt: QUESTION,
    });
    expect(result.steps).toHaveLength(3);
    expect(result.text).toMatch(/^Consulted Advocate and Skeptic\.\n\nAdvocate: \[Advocate\] On "Should our team/);
    expect(result.text).toContain(`Skeptic: [Skeptic] On "${QUESTION}"`);
  });

  it('streams the same final text with streamText', async () => {
    const options = { tools: subagentTools(), stopWhen: stepCountIs(5), prompt: QUESTION };
    const generated = await generateText({ model: createScriptedModel(moderator), ...options });
    const streamed = streamText({ model: createScriptedModel(moderator), ...options });
    expect(await streamed.text).toBe(generated.text);
  });

  it('streams thinking as reasoning', async () => {
    const streamed = streamText({
      model: createScriptedModel({ agentName: 'A', subagents: [], script: [{ thinking: 'Weighing both sides.', reply: 'Yes.' }] }),
      prompt: 'x',
    });
    expect(await streamed.reasoningText).toBe('Weighing both sides.');
    expect(await streamed.text).toBe('Yes.');
  });

  it('produces structured output that the AI SDK parses', async () => {
    const result = await generateText({
      model: createScriptedModel({ agentName: 'Planner', subagents: [] }),
      output: Output.object({
        schema: jsonSchema<{ title: string; priority: number }>({
          type: 'object',
          properties: { title: { type: 'string' }, priority: { type: 'integer', minimum: 1, maximum: 5 } },
          required: ['title', 'priority'],
          additionalProperties: false,
        }),
      }),
      prompt: 'Plan the launch',
    });
    expect(result.output).toEqual({ title: 'title from Planner on "Plan the launch"', priority: 3 });
  });
});
