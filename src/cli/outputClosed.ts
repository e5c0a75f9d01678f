// A reader that stops early (`syndicate run … | head -1`, an MCP client that hangs up) closes
// stdout or stderr, and the next write fails with EPIPE. That is no error, but the command must
// still end through its own cleanup, as after Ctrl-C: exiting on the spot lost the usage
// ledger's rows, which are written when the turn ends.

const closed = new AbortController();

/** Aborted once stdout or stderr has lost its reader: cancel what is running and finish up. */
export const outputClosed: AbortSignal = closed.signal;

/** Turns EPIPE on `stream` into `outputClosed`; any other error on it is a bug and throws. */
export function watchOutput(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed.abort();
  });
}
