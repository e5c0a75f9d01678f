/** Documented process exit codes; the same table is printed by --help and in the README. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** The turn ended waiting for the user's answer (ask_user): a script can answer it with --session. */
  inputRequired: 3,
  cancelled: 130,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0    ok
  1    validation failed, the turn failed, or the session was not found
  2    usage error (unknown command or option, missing argument, unknown syndicate name, a --db or SYNDICATE_DB that names no store)
  3    the turn ended waiting for the user's answer (ask_user): answer with run --session
  130  cancelled by Ctrl-C`;
