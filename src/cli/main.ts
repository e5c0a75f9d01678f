#!/usr/bin/env node
import { loadDotEnv } from '../models/loadDotEnv.js';
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

// A reader that stops early (`syndicate sessions show x | head`) is not an error: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const code = await main(process.argv);
// Exit explicitly: an idle keep-alive socket of a model provider must not hold the process open,
// but only after piped output has been flushed.
await Promise.all([drain(process.stdout), drain(process.stderr)]);
process.exit(code);
