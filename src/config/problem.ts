// A problem found in one file's data, before it is tied to a line and column.
// Checks produce problems; the loader locates them in the YAML source and turns them into ConfigIssues.

export type PathSegment = string | number;
export type Path = readonly PathSegment[];

/** Where in the node to point: the key itself (unknown keys) or a piece of text inside a string value. */
export type Anchor = 'key' | { text: string };

export interface Problem {
  path: Path;
  message: string;
  anchor?: Anchor;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `subagents[1].generateContentConfig.temperature`, the way a person would write it. */
export function formatPath(path: Path): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `data` at `path`, or undefined when any step is missing. */
export function valueAt(data: unknown, path: Path): unknown {
  let current = data;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment === 'string' && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}
