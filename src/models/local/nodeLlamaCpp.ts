import { ModelConfigError } from '../errors.js';

// node-llama-cpp is an optional peer dependency (732 MB installed), so neither the type checker
// nor the CLI bundler may need it: its module is imported through a specifier they cannot follow,
// and the part of its API used here is declared below, structurally.

export const NODE_LLAMA_CPP_VERSION = '3.21.1';
export const NODE_LLAMA_CPP_INSTALL = `npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`;

export type Token = number;

/** node-llama-cpp's JSON-schema subset for grammars (see gbnfJson/types.d.ts there). */
export type GbnfJsonSchema = { readonly [key: string]: unknown };

export interface Tokenizer {
  (text: string, specialTokens?: boolean): Token[];
}

export interface LlamaText {
  toString(): string;
  tokenize(tokenizer: Tokenizer): Token[];
}

export type ChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: Array<string | ChatModelFunctionCall> };

export interface ChatModelFunctionCall {
  type: 'functionCall';
  name: string;
  description?: string;
  params: unknown;
  result: unknown;
}

export type ChatModelFunctions = Readonly<Record<string, { readonly description?: string; readonly params?: GbnfJsonSchema }>>;

export interface ChatWrapper {
  readonly wrapperName: string;
  generateContextState(options: { chatHistory: readonly ChatHistoryItem[]; availableFunctions?: ChatModelFunctions; documentFunctionParams?: boolean }): {
    contextText: LlamaText;
  };
}

/** Opaque here: built by Llama, handed to generateResponse. */
export type LlamaGrammar = object;

export interface TokenMeterState {
  usedInputTokens: number;
  usedOutputTokens: number;
}

export interface LlamaContextSequence {
  readonly contextTokens: Token[];
  readonly tokenMeter: { getState(): TokenMeterState };
}

export interface LlamaContext {
  readonly contextSize: number;
  getSequence(): LlamaContextSequence;
  dispose(): Promise<void>;
}

export interface LlamaModel {
  readonly tokenizer: Tokenizer;
  createContext(options: { threads: number; contextSize: { min?: number; max?: number } }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}

export interface Llama {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: GbnfJsonSchema): Promise<LlamaGrammar>;
  getGrammarFor(type: 'json'): Promise<LlamaGrammar>;
  dispose(): Promise<void>;
}

export interface FunctionCallResult {
  functionName: string;
  params: unknown;
}

export type StopReason = 'eogToken' | 'stopGenerationTrigger' | 'functionCalls' | 'maxTokens' | 'abort' | 'customStopTrigger';

/** A piece of the reply as it is sampled: main text, or a segment such as a chain of thought. */
export type ResponseChunk = { type: undefined; text: string } | { type: 'segment'; segmentType: 'thought' | 'comment'; text: string };

export type ResponseItem = string | { type: 'segment'; segmentType: 'thought' | 'comment'; text: string };

export interface GenerateResponseOptions {
  onResponseChunk?: (chunk: ResponseChunk) => void;
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  topK?: number;
  topP?: number;
  seed?: number;
  repeatPenalty?: { presencePenalty?: number; frequencyPenalty?: number };
  customStopTriggers?: readonly string[];
  grammar?: LlamaGrammar;
  functions?: ChatModelFunctions;
  documentFunctionParams?: boolean;
}

export interface LlamaChat {
  readonly chatWrapper: ChatWrapper;
  readonly sequence: LlamaContextSequence;
  generateResponse(
    history: ChatHistoryItem[],
    options: GenerateResponseOptions,
  ): Promise<{ response: string; fullResponse: ResponseItem[]; functionCalls?: FunctionCallResult[]; metadata: { stopReason: StopReason } }>;
}

export interface NodeLlamaCpp {
  getLlama(options: { gpu: false; maxThreads: number; build: 'never'; logLevel?: string }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: LlamaContextSequence; chatWrapper?: 'auto' }) => LlamaChat;
}

const SPECIFIER: string = 'node-llama-cpp';

// Vite (so vitest) resolves a missing optional peer to a module that throws this instead of Node's error.
const VITE_MISSING_PEER = /^Could not resolve "[^"]+" imported by/;

function isMissingModule(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' || VITE_MISSING_PEER.test(error.message);
}

/** Imports node-llama-cpp, or fails with a ModelConfigError that gives the install command. */
export async function importNodeLlamaCpp(importer: () => Promise<unknown> = () => import(SPECIFIER)): Promise<NodeLlamaCpp> {
  try {
    return (await importer()) as NodeLlamaCpp;
  } catch (error) {
    if (!isMissingModule(error)) throw error;
    throw new ModelConfigError(
      `Local GGUF models (local:<path>) need the optional package node-llama-cpp, which is not installed. Install it with: ${NODE_LLAMA_CPP_INSTALL}`,
      { cause: error },
    );
  }
}
