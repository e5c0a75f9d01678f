// Each face keeps its sessions in a namespace of its own: the A2A face `a2a:<agent>:<owner>:<contextId>`,
// the MCP face `mcp:<caller>:<session_id>`; ids without such a prefix (the UUIDs `run` mints, what
// `run --session` names) are the local user's, through the CLI. The id a caller chose is escaped, so
// its ':' cannot close the scope early: "alice:<id>" sent by another caller never names alice's
// session, and "a2a:…" sent through MCP never names, or plants, an A2A session.

/** `<scope>:<id>` with the id's ':' and '%' escaped; ids without them (UUIDs) are kept as they are. */
export function scopedSessionId(scope: string, id: string): string {
  return `${scope}:${id.replaceAll('%', '%25').replaceAll(':', '%3A')}`;
}
