import { createInterface } from 'node:readline';
import { ExitCode } from './exitCodes.js';
import { outputClosed } from './outputClosed.js';
import { playTurn } from './playTurn.js';
import { NOTHING_STORED, storedNote } from './sessionNotes.js';
import type { TurnCommandOptions } from './options.js';
import { openTurnSession, type TurnSession } from './turnSession.js';
import { chatJobRunner, turnQueue } from './chatJobs.js';

const LEAVE_WORDS: ReadonlySet<string> = new Set(['exit', 'quit']);

function banner(session: TurnSession): string {
  const { syndicate, style } = session;
  const about = syndicate.description ? ` — ${syndicate.description}` : '';
  const memory = session.store
    ? `Session ${session.sessionId}.`
    : 'memory_system: internal-only, so each message starts afresh and nothing is stored.';
  return `${style.bold(syndicate.name)}${about}\n${style.dim(`${memory} Type exit or quit (or press Ctrl-D) to leave; Ctrl-C cancels a running turn.`)}\n`;
}

function farewell(session: TurnSession): string {
  return session.store ? storedNote(session, session.style) : session.style.dim(NOTHING_STORED);
}

/** A REPL: every line is one turn of the same session. */
export async function chatCommand(target: string, options: TurnCommandOptions): Promise<number> {
  const session = await openTurnSession(target, options, process.env);
  const json = options.json === true;
  const interactive = process.stdin.isTTY === true && !json;
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: session.style.cyan('you › '), terminal: interactive && process.stdout.isTTY });
  let running: AbortController | undefined;
  // Stops report turns still queued or running when the person leaves.
  const leaving = new AbortController();
  const queue = turnQueue();
  const jobs = chatJobRunner(session, queue, AbortSignal.any([leaving.signal, outputClosed]));
  let exitCode: number = ExitCode.ok;
  let turns = 0;
  // Ctrl-C cancels the running turn; at the prompt it leaves. On a terminal readline reports it
  // (raw mode swallows the signal); with piped input the process receives SIGINT itself.
  const onInterrupt = (): void => {
    if (running) {
      running.abort();
      return;
    }
    leaving.abort();
    exitCode = ExitCode.cancelled;
    rl.close();
  };
  // Nobody reads the answers once the output is closed: the turn is cancelled and the chat ends.
  const onOutputClosed = (): void => rl.close();
  rl.on('SIGINT', onInterrupt);
  process.on('SIGINT', onInterrupt);
  outputClosed.addEventListener('abort', onOutputClosed, { once: true });
  if (!json) process.stdout.write(banner(session));
  try {
    if (interactive) rl.prompt();
    for await (const raw of rl) {
      const input = raw.trim();
      // With piped input nothing echoes the line, so the output would read as answers to nothing.
      if (!interactive && !json) process.stdout.write(`${session.style.cyan('you ›')} ${input}\n`);
      if (LEAVE_WORDS.has(input)) break;
      if (input !== '') {
        running = new AbortController();
        turns++;
        const signal = AbortSignal.any([running.signal, outputClosed]);
        const turn = running;
        await queue.run(() => playTurn(session.syndicate, { ...session.turnOptions(input, signal), background: jobs }, session.printer, session.spinner));
        if (running === turn) running = undefined;
        if (!json) process.stdout.write('\n');
      }
      if (interactive) rl.prompt();
    }
    if (jobs?.busy && !leaving.signal.aborted) {
      // Piped input ends before the jobs it started: their reports are what the person asked for.
      (json ? process.stderr : process.stdout).write(`${session.style.dim('Waiting for the background jobs this chat started to report (Ctrl-C leaves now).')}\n`);
      await Promise.race([jobs.idle(), new Promise((resolve) => leaving.signal.addEventListener('abort', resolve, { once: true }))]);
    }
  } finally {
    await jobs?.close();
    rl.close();
    process.off('SIGINT', onInterrupt);
    outputClosed.removeEventListener('abort', onOutputClosed);
    const notes = json ? process.stderr : process.stdout;
    if (turns > 0) notes.write(`${interactive ? '\n' : ''}${farewell(session)}\n`);
    // The session ends here (exit, Ctrl-D, Ctrl-C at the prompt): its turns are remembered now.
    try {
      const remembered = turns > 0 ? await session.remember() : undefined;
      if (remembered !== undefined) notes.write(`${remembered}\n`);
    } finally {
      await session.close();
    }
  }
  return exitCode;
}
