import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { generate, type Generation } from './generate.js';
import { loadLocalModel } from './localModelCache.js';
import { planGeneration } from './plan.js';
import { streamWriter } from './streamWriter.js';

export const LOCAL_PROVIDER = 'local';

function toolCallId(): string {
  return `call_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

function contentOf(generation: Generation): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  if (generation.reasoning) content.push({ type: 'reasoning', text: generation.reasoning });
  if (generation.text) content.push({ type: 'text', text: generation.text });
  for (const call of generation.toolCalls) content.push({ type: 'tool-call', toolCallId: toolCallId(), toolName: call.toolName, input: call.input });
  return content;
}

async function doGenerate(path: string, options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
  const plan = planGeneration(options);
  const local = await loadLocalModel(path);
  const generation = await generate(local, plan, options.abortSignal);
  return {
    content: contentOf(generation),
    finishReason: generation.finishReason,
    usage: generation.usage,
    warnings: plan.warnings,
    request: { body: generation.request },
  };
}

/** Streams text and reasoning as they are sampled; tool calls arrive whole, once their arguments are complete. */
async function doStream(path: string, options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
  const plan = planGeneration(options);
  const local = await loadLocalModel(path);
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    async start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: plan.warnings });
      const writer = streamWriter((part) => controller.enqueue(part));
      try {
        const generation = await generate(local, plan, options.abortSignal, writer);
        // A forced tool call cut short by the token limit is text that was never streamed.
        if (!writer.wroteText) writer.text(generation.text);
        writer.close();
        for (const part of contentOf(generation)) if (part.type === 'tool-call') controller.enqueue(part);
        controller.enqueue({ type: 'finish', usage: generation.usage, finishReason: generation.finishReason });
      } catch (error) {
        controller.enqueue({ type: 'error', error });
      }
      controller.close();
    },
  });
  return { stream };
}

/**
 * A GGUF model file run in-process by node-llama-cpp. Nothing is loaded until the first call;
 * `path` is resolved against the working directory.
 */
export function createLocalModel(path: string): LanguageModelV3 {
  const absolute = resolve(path);
  return {
    specificationVersion: 'v3',
    provider: LOCAL_PROVIDER,
    modelId: path,
    supportedUrls: {},
    doGenerate: (options) => doGenerate(absolute, options),
    doStream: (options) => doStream(absolute, options),
  };
}
