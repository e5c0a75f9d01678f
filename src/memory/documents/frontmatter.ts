import { isMap, LineCounter, parseDocument } from 'yaml';
import { DocumentError } from './errors.js';

export interface ParsedMarkdown {
  /** The frontmatter mapping ({} without frontmatter). */
  frontmatter: Record<string, unknown>;
  /** 1-based line of the file where the body starts. */
  bodyStartLine: number;
}

const OPENING = /^---[ \t]*\r?$/;
// A "billion laughs" frontmatter is refused before it is expanded.
const MAX_ALIAS_COUNT = 100;

/**
 * Reads the YAML frontmatter between a first line '---' and the next '---' line. Malformed YAML,
 * a frontmatter that is not a mapping, or a missing closing line is refused with file:line.
 */
export function parseFrontmatter(file: string, content: string): ParsedMarkdown {
  const lines = content.split('\n');
  if (!OPENING.test(lines[0] ?? '')) return { frontmatter: {}, bodyStartLine: 1 };
  const closing = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)[ \t]*\r?$/.test(line));
  if (closing === -1) {
    throw new DocumentError(`${file}:1: malformed frontmatter: the '---' on line 1 is never closed by another '---' line`);
  }
  const yamlText = lines.slice(1, closing).join('\n');
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true, lineCounter });
  const [error] = document.errors;
  if (error !== undefined) {
    // +1: the YAML starts on the file's second line.
    const line = lineCounter.linePos(error.pos[0]).line + 1;
    throw new DocumentError(`${file}:${line}: malformed frontmatter: ${error.message.split('\n')[0]}`);
  }
  if (document.contents !== null && !isMap(document.contents)) {
    throw new DocumentError(`${file}:2: malformed frontmatter: it must be a mapping of keys to values (e.g. 'title: Notes')`);
  }
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = (document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {}) as Record<string, unknown>;
  } catch (error) {
    // The yaml package throws for an unresolved alias and for aliases that expand too far, saying nothing of where.
    if (!(error instanceof ReferenceError)) throw error;
    throw new DocumentError(`${file}:2: malformed frontmatter: ${error.message}`);
  }
  return { frontmatter, bodyStartLine: closing + 2 };
}

/** The frontmatter's title, else the first '# ' heading of the body, else undefined. */
export function documentTitle(frontmatter: Record<string, unknown>, lines: readonly string[], bodyStartLine: number): string | undefined {
  if (typeof frontmatter.title === 'string' && frontmatter.title.trim() !== '') return frontmatter.title.trim();
  for (const line of lines.slice(bodyStartLine - 1)) {
    const heading = /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) return heading[1];
  }
  return undefined;
}
