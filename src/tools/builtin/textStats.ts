import { z } from 'zod';
import { defineTool } from '../../core/tool.js';

const inputSchema = z.object({ text: z.string().describe('The text to measure.') });

export const textStats = defineTool({
  name: 'text_stats',
  description: 'Counts the characters, words, sentences and lines of a text.',
  inputSchema,
  execute: ({ text }) => ({
    characters: text.length,
    words: text.split(/\s+/).filter(Boolean).length,
    sentences: text.split(/[.!?]+(?:\s|$)/).filter((s) => s.trim()).length,
    lines: text === '' ? 0 : text.split('\n').length,
  }),
});
