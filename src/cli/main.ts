#!/usr/bin/env node
import { loadDotEnv } from '../models/loadDotEnv.js';
import { outputClosed, watchOutput } from './outputClosed.js';
import { buildProgram } from './program.js';
import { reportError } from './reportError.js';

function drain(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

async function main(argv: string[]): Promise<number> {
  try {
    loadDotEnv();
    await buildProgram().parseAsync(argv);
    return Number(process.exitCode ?? 0);
  } catch (error) {
    return reportError(error);
  }
}

watchOutput(process.stdout);
watchOutput(process.stderr);

const code = await main(process.argv);
// Exit explicitly: an idle keep-alive socket of a model provider must not hold the process open,
// but only after piped output has been flushed.
await Promise.all([drain(process.stdout), drain(process.stderr)]);
// A reader that stops early (`syndicate sessions show x | head`) is not an error: stop quietly.
process.exit(outputClosed.aborted ? 0 : code);
