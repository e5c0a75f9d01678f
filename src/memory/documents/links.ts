import { posix } from 'node:path';
import type { LinkInput } from '../../store/documents.js';
import { documentPathProblem, isBundleName, withMarkdownExtension } from './paths.js';

// The links of a document: `[label](path.md)` to a document of the same bundle (relative to the
// linking document's folder) and `[[bundle/slug]]` (or `[[slug]]` in the same bundle, `[[bundle/slug|label]]`
// with a label) across bundles. Links inside code are text, not links; links that would leave their
// bundle, web links and images are not document links.

const MARKDOWN_LINK = /(!?)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const WIKI_LINK = /\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function inBundleTarget(fromPath: string, target: string): string | undefined {
  if (SCHEME.test(target) || target.startsWith('#') || target.startsWith('/')) return undefined;
  let bare = target.replace(/[#?].*$/, '');
  try {
    bare = decodeURI(bare);
  } catch {
    return undefined; // Malformed percent-encoding: not a path anyone can follow.
  }
  if (!bare.endsWith('.md')) return undefined;
  const resolved = posix.normalize(posix.join(posix.dirname(fromPath), bare));
  return documentPathProblem(resolved, true) === undefined ? resolved : undefined;
}

function wikiTarget(bundle: string, target: string): { bundle: string; path: string } | undefined {
  const trimmed = target.trim();
  const slash = trimmed.indexOf('/');
  const toBundle = slash === -1 ? bundle : trimmed.slice(0, slash);
  const path = withMarkdownExtension(slash === -1 ? trimmed : trimmed.slice(slash + 1));
  if (!isBundleName(toBundle) || documentPathProblem(path, true) !== undefined) return undefined;
  return { bundle: toBundle, path };
}

/** Links of the document at `path` in `bundle`, in reading order; `lines` is the whole file. */
export function extractLinks(bundle: string, path: string, lines: readonly string[]): LinkInput[] {
  const links: LinkInput[] = [];
  let fence: string | undefined;
  lines.forEach((raw, index) => {
    const opening = FENCE.exec(raw);
    if (fence !== undefined) {
      if (opening && opening[1]![0] === fence[0] && opening[1]!.length >= fence.length && raw.trim() === opening[1]) fence = undefined;
      return;
    }
    if (opening) {
      fence = opening[1]!;
      return;
    }
    const line = raw.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
    for (const match of line.matchAll(MARKDOWN_LINK)) {
      if (match[1] === '!') continue;
      const to = inBundleTarget(path, match[3]!);
      if (to !== undefined) links.push({ to: { bundle, path: to }, label: match[2]!.trim(), line: index + 1 });
    }
    for (const match of line.matchAll(WIKI_LINK)) {
      const to = wikiTarget(bundle, match[1]!);
      if (to !== undefined) links.push({ to, label: (match[2] ?? match[1]!).trim(), line: index + 1 });
    }
  });
  return links;
}
