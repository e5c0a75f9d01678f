import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';

// Reasoning models such as qwen3, QwQ and deepseek-r1 write their reasoning inline as
// <think>…</think> when the server does not separate it (Ollama without its `think` option,
// which the provider sends as false). The provider passes that through as answer text, so it
// would be shown, stored and fed back as if the agent had said it. These functions move it to
// reasoning parts, which the runtime shows as thinking and never sends to a model again.

const OPEN = '<think>';
const CLOSE = '</think>';

export interface ThinkSegment {
  kind: 'text' | 'reasoning';
  text: string;
}

/** Splits text that arrives in pieces; a tag cut in two by a piece boundary is held back until it is whole. */
export interface ThinkTagSplitter {
  push(delta: string): ThinkSegment[];
  /** Releases what is held back, once the text has ended: an unclosed block stays reasoning. */
  end(): ThinkSegment[];
}

/** How many characters at the end of `text` could be the start of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}

const WHITESPACE = /\s/;

/** Where the part of `text` that is safe to release ends: before a possible partial tag and the whitespace leading up to it. */
function releasableLength(text: string, tag: string): number {
  let end = text.length - partialTagLength(text, tag);
  while (end > 0 && WHITESPACE.test(text[end - 1]!)) end--;
  return end;
}

export function createThinkTagSplitter(): ThinkTagSplitter {
  let inside = false;
  let pending = '';
  // Models put line breaks around each tag; they belong to neither side. So whitespace is
  // held back until something follows it, and dropped at the start of each side.
  let trimStart = true;

  const emit = (text: string, out: ThinkSegment[]): void => {
    const kept = trimStart ? text.trimStart() : text;
    if (kept === '') return;
    trimStart = false;
    const kind = inside ? 'reasoning' : 'text';
    const last = out[out.length - 1];
    if (last?.kind === kind) last.text += kept;
    else out.push({ kind, text: kept });
  };

  return {
    push(delta) {
      const out: ThinkSegment[] = [];
      pending += delta;
      while (true) {
        const tag = inside ? CLOSE : OPEN;
        const at = pending.indexOf(tag);
        if (at < 0) break;
        emit(pending.slice(0, at).trimEnd(), out);
        pending = pending.slice(at + tag.length);
        inside = !inside;
        trimStart = true;
      }
      const end = releasableLength(pending, inside ? CLOSE : OPEN);
      emit(pending.slice(0, end), out);
      pending = pending.slice(end);
      return out;
    },
    end() {
      const out: ThinkSegment[] = [];
      emit(pending.trimEnd(), out);
      pending = '';
      return out;
    },
  };
}

export function splitThinkTags(text: string): ThinkSegment[] {
  const splitter = createThinkTagSplitter();
  return [...splitter.push(text), ...splitter.end()];
}

function splitContent(content: readonly LanguageModelV3Content[]): LanguageModelV3Content[] {
  return content.flatMap((part): LanguageModelV3Content[] =>
    part.type === 'text' ? splitThinkTags(part.text).map((segment) => ({ type: segment.kind, text: segment.text })) : [part],
  );
}

interface TextBlock {
  id: string;
  splitter: ThinkTagSplitter;
  open: { kind: ThinkSegment['kind']; id: string } | undefined;
}

type Controller = TransformStreamDefaultController<LanguageModelV3StreamPart>;

function closeOpenPart(block: TextBlock, controller: Controller): void {
  if (!block.open) return;
  controller.enqueue({ type: block.open.kind === 'text' ? 'text-end' : 'reasoning-end', id: block.open.id });
  block.open = undefined;
}

/** `partId` names each new text or reasoning part, unique within the stream. */
function writeSegments(block: TextBlock, segments: readonly ThinkSegment[], controller: Controller, partId: () => string): void {
  for (const segment of segments) {
    let open = block.open;
    if (open?.kind !== segment.kind) {
      closeOpenPart(block, controller);
      open = { kind: segment.kind, id: `${block.id}:${partId()}` };
      block.open = open;
      controller.enqueue({ type: segment.kind === 'text' ? 'text-start' : 'reasoning-start', id: open.id });
    }
    const id = open.id;
    controller.enqueue(segment.kind === 'text' ? { type: 'text-delta', id, delta: segment.text } : { type: 'reasoning-delta', id, delta: segment.text });
  }
}

/** Rewrites each text block of a stream into text and reasoning blocks; every other part passes unchanged. */
function thinkTagStream(): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const blocks = new Map<string, TextBlock>();
  let parts = 0;
  const partId = (): string => String(parts++);
  const blockOf = (id: string): TextBlock => {
    let block = blocks.get(id);
    if (!block) {
      block = { id, splitter: createThinkTagSplitter(), open: undefined };
      blocks.set(id, block);
    }
    return block;
  };
  const endBlock = (block: TextBlock, controller: Controller): void => {
    writeSegments(block, block.splitter.end(), controller, partId);
    closeOpenPart(block, controller);
    blocks.delete(block.id);
  };
  const endAll = (controller: Controller): void => {
    for (const block of [...blocks.values()]) endBlock(block, controller);
  };

  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case 'text-start':
          blockOf(part.id);
          return;
        case 'text-delta': {
          const block = blockOf(part.id);
          writeSegments(block, block.splitter.push(part.delta), controller, partId);
          return;
        }
        case 'text-end': {
          const block = blocks.get(part.id);
          if (block) endBlock(block, controller);
          return;
        }
        case 'finish':
          endAll(controller);
          controller.enqueue(part);
          return;
        default:
          controller.enqueue(part);
      }
    },
    flush: endAll,
  });
}

/** `model` with <think>…</think> in its answers turned into reasoning, for both doGenerate and doStream. */
export function withThinkTagReasoning(model: LanguageModelV3): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      const result = await model.doGenerate(options);
      return { ...result, content: splitContent(result.content) };
    },
    doStream: async (options: LanguageModelV3CallOptions) => {
      const result = await model.doStream(options);
      return { ...result, stream: result.stream.pipeThrough(thinkTagStream()) };
    },
  };
}
