import { join } from 'node:path';
import { scratchDir } from '../../support/scratchDir.js';
import { ModelConfigError } from '../../../src/models/errors.js';
import { importNodeLlamaCpp, NODE_LLAMA_CPP_INSTALL } from '../../../src/models/local/nodeLlamaCpp.js';
import { TINY_CHATML_TEMPLATE, writeTinyGguf } from './tinyGguf.js';
import { IN_CI } from '../../inCi.js';

// node-llama-cpp is optional, so a developer without it may skip the tests that run a model;
// CI installs it (.ci/run), and there a missing package must fail them, never skip them.

export const nodeLlamaCppInstalled: boolean = await importNodeLlamaCpp().then(
  () => true,
  (error: unknown) => {
    if (error instanceof ModelConfigError) return false;
    throw error;
  },
);

if (!nodeLlamaCppInstalled && !IN_CI) {
  // In this repository, where it is an optional peer, npm installs it only as a dev dependency.
  const command = NODE_LLAMA_CPP_INSTALL.replace('npm install', 'npm install --no-save -D');
  console.warn(`Skipping the tests that run a local GGUF model: node-llama-cpp is not installed. To run them: ${command}`);
}

/** Whether to run the tests that run a model: always in CI, elsewhere when the package is there. */
export const runModelTests: boolean = nodeLlamaCppInstalled || IN_CI;

export interface TinyModels {
  /** With a ChatML template in its metadata. */
  chatml: string;
  /** Without a chat template. */
  plain: string;
  /** ChatML, with room for 256 tokens only. */
  small: string;
}

export function writeTinyModels(): TinyModels {
  const dir = scratchDir('gguf');
  return {
    chatml: writeTinyGguf(join(dir, 'tiny-chatml.gguf'), { chatTemplate: TINY_CHATML_TEMPLATE }),
    plain: writeTinyGguf(join(dir, 'tiny-plain.gguf')),
    small: writeTinyGguf(join(dir, 'tiny-small.gguf'), { chatTemplate: TINY_CHATML_TEMPLATE, contextLength: 256 }),
  };
}
