import type { BackgroundCapability } from '../../runtime/background.js';
import { collectTurn } from '../../runtime/collectTurn.js';
import type { CompiledSyndicate } from '../../runtime/compileSyndicate.js';
import type { RunTurnOptions } from '../../runtime/runTurn.js';
import type { JobRecord, PieceOutcome, PieceRecord } from '../../store/backgroundJobs.js';
import type { Store } from '../../store/store.js';
import { MAX_PIECE_TIMEOUT_S } from './limits.js';

// One piece: a subagent run as the root of a turn of its own, in the piece's own session, under the
// job's time limit. Its turn may start nested jobs through `background` (a piece of this job).

export interface PieceRun {
  syndicate: CompiledSyndicate;
  job: JobRecord;
  piece: PieceRecord;
  store: Store;
  signal: AbortSignal;
  background: BackgroundCapability;
  extra: Partial<RunTurnOptions> | undefined;
}

export async function runPiece({ syndicate, job, piece, store, signal, background, extra }: PieceRun): Promise<PieceOutcome> {
  const agent = syndicate.agents.get(piece.agent);
  if (!agent) return { status: 'failed', error: `the syndicate '${syndicate.name}' has no agent '${piece.agent}' any more (its file changed after the job started)` };
  // The same syndicate with the piece's agent at the root: its tools, subagents and limits as declared.
  const rooted: CompiledSyndicate = { ...syndicate, root: agent };
  const { events, end } = await collectTurn(rooted, { stream: false, ...extra, input: piece.request, sessionId: piece.sessionId, store, signal, deadlineMs: job.timeoutMs, background });
  if (end.status === 'completed') return { status: 'answered', answer: end.output };
  if (end.status === 'input-required') return { status: 'failed', error: `${piece.agent} asked a question, and nobody answers a background piece: ${end.output}` };
  const timedOut = events.some((event) => event.type === 'error' && event.code === 'deadline');
  if (timedOut) return { status: 'failed', error: `timed out after ${job.timeoutMs / 1000} s (its time limit; pass a larger timeout_s, at most ${MAX_PIECE_TIMEOUT_S})` };
  return { status: 'failed', error: end.error ?? `the piece's turn ended ${end.status}` };
}
