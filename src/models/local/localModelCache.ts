import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { ModelConfigError } from '../errors.js';
import { importNodeLlamaCpp, type Llama, type LlamaChat, type LlamaGrammar, type LlamaModel, type NodeLlamaCpp } from './nodeLlamaCpp.js';
import type { Grammar } from './plan.js';

// A GGUF file is loaded once per process, whichever agents use it, and kept loaded. Its one
// context sequence runs one generation at a time, so calls to the same model queue.

/**
 * llama.cpp's threads busy-wait for each other, so every thread needs a core of its own, and Node's
 * thread (which samples each token) one more. node-llama-cpp defaults to a thread per core, which
 * on a 2-core machine runs up to 350x slower (DESIGN.md); even 2 threads there ran 3-30x slower
 * than 1 (measured with other processes busy, a 70M-parameter model included). So: at most 2, and
 * one core left free.
 */
export const MAX_THREADS = 2;
export const THREADS = Math.min(MAX_THREADS, Math.max(1, availableParallelism() - 1));
/** Caps the context at what a CPU can fill in reasonable time, whatever the model was trained for. */
const MAX_CONTEXT_TOKENS = 8192;

export interface LocalModel {
  readonly path: string;
  readonly model: LlamaModel;
  readonly chat: LlamaChat;
  readonly contextSize: number;
  grammar(grammar: Grammar): Promise<LlamaGrammar>;
  /** Runs `task` once every earlier task on this model is done; fails at once if `signal` aborts first. */
  exclusive<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

interface Runtime {
  lib: NodeLlamaCpp;
  llama: Llama;
}

let runtime: Promise<Runtime> | undefined;
const models = new Map<string, Promise<LocalModel>>();

function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    const lib = await importNodeLlamaCpp();
    try {
      // build 'never': use the prebuilt binary from npm; never download or compile llama.cpp at run time.
      const llama = await lib.getLlama({ gpu: false, maxThreads: MAX_THREADS, build: 'never', logLevel: 'error' });
      return { lib, llama };
    } catch (error) {
      throw new ModelConfigError(`node-llama-cpp could not start llama.cpp on this machine (${process.platform}-${process.arch}): ${(error as Error).message}`, { cause: error });
    }
  })().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

async function checkFile(path: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (!found?.isFile()) throw new ModelConfigError(`The local model file ${path} does not exist (or is not a file). Check the path after "local:" in the agent's model.`);
}

function serialQueue(): LocalModel['exclusive'] {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    const run = tail.then(() => {
      signal?.throwIfAborted();
      return task();
    });
    tail = run.catch(() => undefined);
    return run;
  };
}

async function load(path: string): Promise<LocalModel> {
  await checkFile(path);
  const { lib, llama } = await loadRuntime();
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: path });
  } catch (error) {
    throw new ModelConfigError(`Could not load ${path} as a GGUF model: ${(error as Error).message}`, { cause: error });
  }
  const context = await model.createContext({ threads: THREADS, contextSize: { max: MAX_CONTEXT_TOKENS } });
  const chat = new lib.LlamaChat({ contextSequence: context.getSequence(), chatWrapper: 'auto' });
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  return {
    path,
    model,
    chat,
    contextSize: context.contextSize,
    grammar(grammar) {
      const key = grammar.kind === 'json' ? 'json' : JSON.stringify(grammar.schema);
      let found = grammars.get(key);
      if (!found) {
        found = grammar.kind === 'json' ? llama.getGrammarFor('json') : llama.createGrammarForJsonSchema(grammar.schema);
        grammars.set(key, found);
        found.catch(() => grammars.delete(key));
      }
      return found;
    },
    exclusive: serialQueue(),
  };
}

/** The loaded model at `path` (absolute), loading it on first use. A failed load is forgotten. */
export function loadLocalModel(path: string): Promise<LocalModel> {
  let found = models.get(path);
  if (!found) {
    found = load(path);
    models.set(path, found);
    found.catch(() => models.delete(path));
  }
  return found;
}

/** Frees every loaded model and the llama.cpp runtime (tests; a long-lived process that is done with them). */
export async function disposeLocalModels(): Promise<void> {
  const loaded = await Promise.allSettled(models.values());
  models.clear();
  for (const result of loaded) if (result.status === 'fulfilled') await result.value.model.dispose();
  const current = runtime;
  runtime = undefined;
  if (current) await (await current.catch(() => undefined))?.llama.dispose();
}
