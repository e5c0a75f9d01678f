import type { TurnStatus } from '../core/events.js';
import { ExitCode } from './exitCodes.js';
import { outputClosed } from './outputClosed.js';
import { playTurn } from './playTurn.js';
import { NOTHING_STORED, storedNote } from './sessionNotes.js';
import type { TurnCommandOptions } from './options.js';
import { openTurnSession, type TurnSession } from './turnSession.js';

function exitCodeOf(status: TurnStatus): number {
  if (status === 'completed') return ExitCode.ok;
  if (status === 'input-required') return ExitCode.inputRequired;
  return status === 'cancelled' ? ExitCode.cancelled : ExitCode.failed;
}

/** Notes for the person; on stderr with --json so stdout stays pure NDJSON. */
function printNote(session: TurnSession, note: string | undefined): void {
  if (note === undefined) return;
  if (session.options.json) process.stderr.write(`${note}\n`);
  else process.stdout.write(`\n${note}\n`);
}

/** Where the turn went. */
function printStorage(session: TurnSession, status: TurnStatus): void {
  printNote(session, session.store ? storedNote(session, session.style, status === 'input-required') : session.style.dim(NOTHING_STORED));
}

export async function runCommand(target: string, message: string, options: TurnCommandOptions): Promise<number> {
  const session = await openTurnSession(target, options, process.env);
  const controller = new AbortController();
  // First Ctrl-C cancels the turn (its events so far are kept); a second one stops waiting for it.
  const onInterrupt = (): void => {
    if (controller.signal.aborted) process.exit(ExitCode.cancelled);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  try {
    // Nobody reads the answer once the output is closed: the turn is cancelled as by Ctrl-C.
    const signal = AbortSignal.any([controller.signal, outputClosed]);
    const status = await playTurn(session.syndicate, session.turnOptions(message, signal), session.printer, session.spinner);
    printStorage(session, status);
    // A one-shot run is a whole session: it is remembered now, even after a cancelled turn.
    printNote(session, await session.remember());
    return exitCodeOf(status);
  } finally {
    process.off('SIGINT', onInterrupt);
    await session.close();
  }
}
