import type { JobRecord, PieceRecord } from '../../store/backgroundJobs.js';

// The text of a job's report: the input of the one report turn in the originating session.

function pieceLine(piece: PieceRecord): string {
  const head = `Piece ${piece.index + 1} (${piece.agent}), asked: ${JSON.stringify(piece.request)}`;
  if (piece.status === 'answered') return `${head}\nAnswer:\n${piece.answer ?? ''}`;
  return `${head}\nFailed: ${piece.error ?? 'no reason was recorded'}`;
}

export function renderReport(job: JobRecord, pieces: readonly PieceRecord[]): string {
  const answered = pieces.filter((piece) => piece.status === 'answered').length;
  return [
    `[Background job ${job.id} has ended: ${answered} of ${pieces.length} piece${pieces.length === 1 ? '' : 's'} answered.]`,
    'This is the report of a background job started earlier in this conversation, not a message from the user. Tell the user what it found.',
    ...pieces.map(pieceLine),
  ].join('\n\n');
}
