/**
 * The first `code` among `codes` on the error or anywhere down its `cause` chain: fetch and
 * undici wrap the socket error (ECONNREFUSED, ECONNRESET…) one or two levels deep.
 */
export function causeCode(error: unknown, codes: ReadonlySet<string>): string | undefined {
  const seen = new Set<unknown>();
  let current = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return code;
    current = current.cause;
  }
  return undefined;
}
