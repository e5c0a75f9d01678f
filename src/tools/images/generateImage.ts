import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ImageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';
import { GENERATE_IMAGE_TOOL } from '../../config/builtinToolNames.js';
import { defineTool, type Tool } from '../../core/tool.js';
import { openOutputsFolder } from './outputsFolder.js';

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

const inputSchema = z
  .object({
    prompt: z.string().min(1).describe('What the image shows: subjects, setting, style.'),
    size: z
      .string()
      .regex(/^\d+x\d+$/, 'must be WIDTHxHEIGHT, e.g. 1024x1024')
      .optional()
      .describe('WIDTHxHEIGHT in pixels, e.g. 1024x1024. Default: the model\'s own.'),
  })
  .strict();

export interface GenerateImageOptions {
  /** The outputs folder images are saved in. */
  folder: string;
  imageModel(): Promise<ImageModelV3>;
}

export function generateImageTool(options: GenerateImageOptions): Tool<z.infer<typeof inputSchema>, { path: string; mediaType: string }> {
  return defineTool({
    name: GENERATE_IMAGE_TOOL,
    description: 'Generates one image from a text prompt with the provider\'s image model, saves it under the outputs folder and returns its path.',
    inputSchema,
    execute: async ({ prompt, size }, ctx) => {
      const model = await options.imageModel();
      // `ai` is imported on first use: an offline run never pays for it.
      const { generateImage } = await import('ai');
      const { image } = await generateImage({ model, prompt, size: size as `${number}x${number}` | undefined, n: 1, abortSignal: ctx.signal });
      const extension = EXTENSIONS[image.mediaType] ?? 'png';
      const file = path.join(openOutputsFolder(options.folder), `${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}.${extension}`);
      writeFileSync(file, image.uint8Array);
      return { path: file, mediaType: image.mediaType };
    },
  });
}
