import { runTurn, type RunTurnOptions } from '../runtime/runTurn.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { TurnStatus } from '../core/events.js';
import type { EventPrinter } from './eventPrinter.js';
import type { Spinner } from './spinner.js';

/** Runs one turn, printing each event as it arrives; resolves to how the turn ended. */
export async function playTurn(syndicate: CompiledSyndicate, options: RunTurnOptions, printer: EventPrinter, spinner: Spinner): Promise<TurnStatus> {
  let status: TurnStatus = 'failed';
  spinner.start();
  try {
    for await (const event of runTurn(syndicate, options)) {
      spinner.stop();
      printer.print(event);
      if (event.type === 'turn-end') status = event.status;
      else if (printer.atLineStart) spinner.start();
    }
  } finally {
    spinner.stop();
  }
  return status;
}
