import { LineCounter, isAlias, isMap, isNode, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import type { Anchor, Path } from './problem.js';

export interface Position {
  line: number;
  column: number;
}

export interface YamlSyntaxError extends Position {
  message: string;
}

export interface YamlSource {
  /** Plain JS data; undefined when the text has syntax errors. */
  data: unknown;
  syntaxErrors: YamlSyntaxError[];
  /** Line and column of the node at `path` (a missing key points at the mapping that lacks it). */
  locate(path: Path, anchor?: Anchor): Position;
}

export function parseYaml(text: string): YamlSource {
  const lineCounter = new LineCounter();
  // prettyErrors off: we place errors ourselves and want the bare message, not a code frame.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const position = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return {
    data: doc.errors.length === 0 ? doc.toJS() : undefined,
    syntaxErrors: doc.errors.map((error) => ({ ...position(error.pos[0]), message: error.message.split('\n')[0] ?? error.message })),
    locate: (path, anchor) => position(offsetOf(doc, text, path, anchor)),
  };
}

interface Found {
  node: Node | undefined;
  key: Node | undefined;
  /** False when the walk stopped early: `node` is then the deepest existing ancestor. */
  complete: boolean;
}

function find(doc: Document, path: Path): Found {
  let node = isNode(doc.contents) ? doc.contents : undefined;
  let key: Node | undefined;
  for (const segment of path) {
    const container = isAlias(node) ? node.resolve(doc) : node;
    const pair = isMap(container) ? container.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment)) : undefined;
    const next = pair ? pair.value : isSeq(container) && typeof segment === 'number' ? container.items[segment] : undefined;
    if (!isNode(next)) return { node, key, complete: false };
    node = next;
    key = isNode(pair?.key) ? pair.key : undefined;
  }
  return { node, key, complete: true };
}

function offsetOf(doc: Document, source: string, path: Path, anchor: Anchor | undefined): number {
  const { node, key, complete } = find(doc, path);
  const start = node?.range?.[0] ?? 0;
  if (!complete) return start;
  if (anchor === 'key' && key?.range) return key.range[0];
  if (typeof anchor === 'object' && node?.range) {
    const index = source.slice(start, node.range[1]).indexOf(anchor.text);
    if (index >= 0) return start + index;
  }
  return start;
}
