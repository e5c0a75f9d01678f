// Model-facing names for MCP tools: `<server>_<tool>`, kept to what every provider accepts
// (letters, digits, _ and -, starting with a letter or _, at most 64 characters: the tightest
// of OpenAI's and Gemini's rules). A name already taken (an agent's own tools and subagents
// win, then earlier servers and tools) gets `_2`, `_3`, ...

const MAX_NAME = 64;

export function sanitizeName(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/_+/g, '_').replace(/^_+|_+$/g, '');
  const named = cleaned === '' ? 'tool' : cleaned;
  return /^[A-Za-z_]/.test(named) ? named : `_${named}`;
}

export function prefixedToolName(server: string, tool: string): string {
  return sanitizeName(`${server}_${tool}`).slice(0, MAX_NAME);
}

/** Takes a free name for `wanted`, adding a numeric suffix when needed, and records it in `taken`. */
export function claimName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = `${wanted.slice(0, MAX_NAME - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
}
