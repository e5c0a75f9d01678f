// The stated limits of background jobs (issue 14 §2).

/** A piece's time limit when the model names none, and the most it may name. */
export const DEFAULT_PIECE_TIMEOUT_S = 600;
export const MAX_PIECE_TIMEOUT_S = 3600;
/** A user's turn starts depth 1; a piece may start depth 2, its piece depth 3, and no deeper. */
export const MAX_JOB_DEPTH = 3;
export const MAX_PIECES = 100;
