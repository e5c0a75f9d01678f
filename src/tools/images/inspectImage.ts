import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';
import { INSPECT_IMAGE_TOOL } from '../../config/builtinToolNames.js';
import { defineTool, type Tool } from '../../core/tool.js';
import { fileInOutputs } from './outputsFolder.js';

const MEDIA_TYPES: Readonly<Record<string, string>> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif' };

// The inventory is blind on purpose: the path is the only argument, so the caller cannot pass
// what it hopes to see, and the prompt is fixed and asks for no judgement, so what comes back
// can be compared with the request that made the image.
export const INVENTORY_PROMPT = [
  'You inventory one image. Describe only what is visible, as plain lists under these headings:',
  'Subjects (each kind of thing, with a count), Composition (layout, framing, viewpoint), Light,',
  'Palette (main colours), Medium cues (photo, painting, 3D render, drawing, ...), Artifacts',
  '(distortions, garbled text, extra or merged limbs, seams). Do not judge quality, do not guess',
  'intent, and do not say whether it matches any request.',
].join(' ');

const inputSchema = z.object({ path: z.string().min(1).describe('The path generate_image returned.') }).strict();

export interface InspectImageOptions {
  folder: string;
  /** The agent's own model, which must accept images. */
  model(): LanguageModelV3;
}

export function inspectImageTool(options: InspectImageOptions): Tool<z.infer<typeof inputSchema>, string> {
  return defineTool({
    name: INSPECT_IMAGE_TOOL,
    description: 'Returns a neutral inventory of one image under the outputs folder (subjects with counts, composition, light, palette, medium cues, artifacts). Its only argument is the path.',
    inputSchema,
    execute: async ({ path: file }, ctx) => {
      const real = fileInOutputs(options.folder, file);
      const mediaType = MEDIA_TYPES[path.extname(real).toLowerCase()];
      if (!mediaType) throw new Error(`'${file}' is not a PNG, JPEG, WebP or GIF image`);
      const result = await options.model().doGenerate({
        prompt: [
          { role: 'system', content: INVENTORY_PROMPT },
          { role: 'user', content: [{ type: 'file', data: readFileSync(real), mediaType }] },
        ],
        abortSignal: ctx.signal,
      });
      const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      if (text.trim() === '') throw new Error(`the model returned no inventory for '${file}'`);
      return text;
    },
  });
}
