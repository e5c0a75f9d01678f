import { writeFileSync } from 'node:fs';
import { seeded } from '../../../bench/memoryData.js';

// Writes a tiny llama-architecture GGUF (v3) model with seeded random F32 weights, so the local
// provider can be tested offline: no chat weights exist on npm. Format: the header (magic,
// version, tensor and key counts), metadata key/values, tensor infos, padding to the alignment,
// then each tensor's data at an aligned offset. Dimensions are written ggml-style, innermost first.
//
// Random weights generate gibberish, which would make a grammar-constrained tool call slow to
// finish (a JSON string closes only when `"` happens to be picked). So every hidden state
// carries a constant component (dimension 0 of every embedding), and each output row's weight on
// it acts as a per-token bias: `"`, `}` and `]` are favoured, so strings, objects and arrays close
// within a few tokens, while control and byte tokens are never picked, so generation runs to its
// token limit in printable characters.

export const TINY_CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TinyGgufOptions {
  /** A Jinja chat template stored as tokenizer.chat_template; none by default. */
  chatTemplate?: string;
  seed?: number;
  /** Trained context length, the most a context can hold (default 4096). */
  contextLength?: number;
}

const ALIGNMENT = 32;
const EMBEDDING = 64;
const HEADS = 4;
const KV_HEADS = 2;
const HEAD_DIM = EMBEDDING / HEADS;
const FEED_FORWARD = 128;
const LAYERS = 2;
const DEFAULT_CONTEXT = 4096;

const enum ValueType {
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
}

const enum TokenType {
  Normal = 1,
  Unknown = 2,
  Control = 3,
  Byte = 6,
}

const GGML_F32 = 0;

type MetadataValue =
  | { type: ValueType.Uint32 | ValueType.Int32 | ValueType.Float32; value: number }
  | { type: ValueType.Bool; value: boolean }
  | { type: ValueType.String; value: string }
  | { type: ValueType.Array; items: ValueType.String; value: readonly string[] }
  | { type: ValueType.Array; items: ValueType.Int32 | ValueType.Float32; value: readonly number[] };

interface Vocabulary {
  tokens: string[];
  types: TokenType[];
  scores: number[];
  bos: number;
  eos: number;
}

interface Tensor {
  name: string;
  /** ggml order: the innermost (row length) first. */
  dims: readonly number[];
  data: Float32Array;
}

/** SentencePiece-style: specials, byte fallback for any UTF-8 text, then printable ASCII with ▁ for a space. */
function vocabulary(withChatTokens: boolean): Vocabulary {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TokenType.Unknown, TokenType.Control, TokenType.Control];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TokenType.Byte);
  }
  tokens.push('\u2581');
  types.push(TokenType.Normal);
  for (let code = 0x21; code < 0x7f; code++) {
    tokens.push(String.fromCharCode(code));
    types.push(TokenType.Normal);
  }
  if (withChatTokens) {
    tokens.push('<|im_start|>', '<|im_end|>');
    types.push(TokenType.Control, TokenType.Control);
  }
  const scores = tokens.map((_, i) => (types[i] === TokenType.Normal ? -i : 0));
  const eos = withChatTokens ? tokens.indexOf('<|im_end|>') : 2;
  return { tokens, types, scores, bos: 1, eos };
}

function normalSampler(random: () => number): (std: number) => number {
  return (std) => std * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function filled(length: number, value: (index: number) => number): Float32Array {
  const data = new Float32Array(length);
  for (let i = 0; i < length; i++) data[i] = value(i);
  return data;
}

const FAVOURED: Readonly<Record<string, number>> = { '"': 3, '}': 2.5, ']': 2 };

function tensors(vocab: Vocabulary, seed: number): Tensor[] {
  const normal = normalSampler(seeded(seed));
  const n = vocab.tokens.length;
  const matrix = (name: string, inner: number, outer: number, std: number): Tensor => ({ name, dims: [inner, outer], data: filled(inner * outer, () => normal(std)) });
  const ones = (name: string): Tensor => ({ name, dims: [EMBEDDING], data: filled(EMBEDDING, () => 1) });

  const embeddings = filled(EMBEDDING * n, (i) => (i % EMBEDDING === 0 ? 1 : normal(0.1)));
  // After the final RMS norm, dimension 0 is about 6.3 for every position (1 against 63 dims of 0.1).
  const biasScale = 1 / 6.3;
  const output = filled(EMBEDDING * n, (i) => {
    const token = Math.floor(i / EMBEDDING);
    if (vocab.types[token] !== TokenType.Normal) return 0;
    if (i % EMBEDDING !== 0) return normal(0.1);
    return (FAVOURED[vocab.tokens[token]!] ?? 0) * biasScale;
  });
  // Control and byte rows are all zero, so their logit is 0 while the best printable one is well above it.

  const result: Tensor[] = [{ name: 'token_embd.weight', dims: [EMBEDDING, n], data: embeddings }];
  for (let layer = 0; layer < LAYERS; layer++) {
    const blk = `blk.${layer}`;
    result.push(
      ones(`${blk}.attn_norm.weight`),
      matrix(`${blk}.attn_q.weight`, EMBEDDING, HEADS * HEAD_DIM, 0.02),
      matrix(`${blk}.attn_k.weight`, EMBEDDING, KV_HEADS * HEAD_DIM, 0.02),
      matrix(`${blk}.attn_v.weight`, EMBEDDING, KV_HEADS * HEAD_DIM, 0.02),
      matrix(`${blk}.attn_output.weight`, HEADS * HEAD_DIM, EMBEDDING, 0.02),
      ones(`${blk}.ffn_norm.weight`),
      matrix(`${blk}.ffn_gate.weight`, EMBEDDING, FEED_FORWARD, 0.02),
      matrix(`${blk}.ffn_up.weight`, EMBEDDING, FEED_FORWARD, 0.02),
      matrix(`${blk}.ffn_down.weight`, FEED_FORWARD, EMBEDDING, 0.02),
    );
  }
  result.push(ones('output_norm.weight'), { name: 'output.weight', dims: [EMBEDDING, n], data: output });
  return result;
}

function metadata(vocab: Vocabulary, options: TinyGgufOptions): Array<[string, MetadataValue]> {
  const u32 = (value: number): MetadataValue => ({ type: ValueType.Uint32, value });
  const entries: Array<[string, MetadataValue]> = [
    ['general.architecture', { type: ValueType.String, value: 'llama' }],
    ['general.name', { type: ValueType.String, value: 'syndicate-tiny-test' }],
    ['general.file_type', u32(0)],
    ['general.alignment', u32(ALIGNMENT)],
    ['llama.context_length', u32(options.contextLength ?? DEFAULT_CONTEXT)],
    ['llama.embedding_length', u32(EMBEDDING)],
    ['llama.block_count', u32(LAYERS)],
    ['llama.feed_forward_length', u32(FEED_FORWARD)],
    ['llama.attention.head_count', u32(HEADS)],
    ['llama.attention.head_count_kv', u32(KV_HEADS)],
    ['llama.rope.dimension_count', u32(HEAD_DIM)],
    ['llama.rope.freq_base', { type: ValueType.Float32, value: 10000 }],
    ['llama.attention.layer_norm_rms_epsilon', { type: ValueType.Float32, value: 1e-5 }],
    ['llama.vocab_size', u32(vocab.tokens.length)],
    ['tokenizer.ggml.model', { type: ValueType.String, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ValueType.Array, items: ValueType.String, value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: ValueType.Array, items: ValueType.Float32, value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: ValueType.Array, items: ValueType.Int32, value: vocab.types }],
    ['tokenizer.ggml.bos_token_id', u32(vocab.bos)],
    ['tokenizer.ggml.eos_token_id', u32(vocab.eos)],
    ['tokenizer.ggml.unknown_token_id', u32(0)],
    ['tokenizer.ggml.add_bos_token', { type: ValueType.Bool, value: true }],
    ['tokenizer.ggml.add_eos_token', { type: ValueType.Bool, value: false }],
  ];
  if (options.chatTemplate !== undefined) entries.push(['tokenizer.chat_template', { type: ValueType.String, value: options.chatTemplate }]);
  return entries;
}

/** Little-endian binary writer that grows as needed. */
class Writer {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  u32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }
  i32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(value, this.length);
  }
  u64(value: number): void {
    this.reserve(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(value), this.length);
  }
  f32(value: number): void {
    this.reserve(4);
    this.length = this.buffer.writeFloatLE(value, this.length);
  }
  bool(value: boolean): void {
    this.reserve(1);
    this.length = this.buffer.writeUInt8(value ? 1 : 0, this.length);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(data: Uint8Array): void {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(padding));
  }
  result(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(out: Writer, value: MetadataValue): void {
  out.u32(value.type);
  switch (value.type) {
    case ValueType.Uint32:
      return out.u32(value.value);
    case ValueType.Int32:
      return out.i32(value.value);
    case ValueType.Float32:
      return out.f32(value.value);
    case ValueType.Bool:
      return out.bool(value.value);
    case ValueType.String:
      return out.string(value.value);
    case ValueType.Array:
      out.u32(value.items);
      out.u64(value.value.length);
      if (value.items === ValueType.String) for (const item of value.value) out.string(item);
      else if (value.items === ValueType.Int32) for (const item of value.value) out.i32(item);
      else for (const item of value.value) out.f32(item);
  }
}

/** The bytes of a tiny GGUF model. */
export function tinyGguf(options: TinyGgufOptions = {}): Buffer {
  const vocab = vocabulary(options.chatTemplate !== undefined);
  const all = tensors(vocab, options.seed ?? 42);
  const entries = metadata(vocab, options);
  const out = new Writer();
  out.bytes(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(all.length);
  out.u64(entries.length);
  for (const [key, value] of entries) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const tensor of all) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_F32);
    out.u64(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  for (const tensor of all) {
    out.padTo(ALIGNMENT);
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  }
  return out.result();
}

/** Writes a tiny GGUF model to `path` and returns the path. */
export function writeTinyGguf(path: string, options: TinyGgufOptions = {}): string {
  writeFileSync(path, tinyGguf(options));
  return path;
}
