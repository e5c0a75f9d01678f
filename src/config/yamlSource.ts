import { LineCounter, isAlias, isCollection, isMap, isNode, isScalar, isSeq, parseDocument, visit, type Document, type Node } from 'yaml';
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

// Every alias counts its anchor's own aliases too, so a "billion laughs" file is refused long
// before it is expanded; shared settings reused by a few dozen agents stay well under it.
const MAX_ALIAS_COUNT = 100;

export function parseYaml(text: string): YamlSource {
  const lineCounter = new LineCounter();
  // prettyErrors off: we place errors ourselves and want the bare message, not a code frame.
  // The core schema whatever `%YAML` says, without YAML 1.1's !!set, !!omap, !!binary and
  // !!timestamp: a syndicate file is JSON-shaped data, and a Set or a Date is no JSON value.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, schema: 'core', resolveKnownTags: false });
  const position = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntaxErrors: YamlSyntaxError[] = [
    ...doc.errors.map((error) => ({ ...position(error.pos[0]), message: error.message.split('\n')[0] ?? error.message })),
    ...doc.warnings
      .filter((warning) => warning.code === 'TAG_RESOLVE_FAILED')
      .map((warning) => ({ ...position(warning.pos[0]), message: `tag ${shownTag(warning.message)} is not supported: use plain text, numbers, true/false, null, lists and mappings` })),
    ...structureErrors(doc).map(({ offset, message }) => ({ ...position(offset), message })),
  ];
  let data: unknown;
  if (syntaxErrors.length === 0) {
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      // The yaml package throws only for alias expansion here, and says nothing of where.
      if (!(error instanceof ReferenceError)) throw error;
      syntaxErrors.push({ ...position(firstAliasOffset(doc)), message: `aliases expand too far (over ${MAX_ALIAS_COUNT} uses, nested aliases multiplied), refused as a resource exhaustion attack: use fewer aliases` });
    }
  }
  return {
    data: syntaxErrors.length === 0 ? data : undefined,
    syntaxErrors,
    locate: (path, anchor) => position(offsetOf(doc, text, path, anchor)),
  };
}

/** '!!set' for 'Unresolved tag: tag:yaml.org,2002:set', as the file spells it. */
function shownTag(message: string): string {
  return message.replace(/^Unresolved tag: /, '').replace(/^tag:yaml\.org,2002:/, '!!');
}

/**
 * Aliases with no anchor before them, aliases inside the node they name (data that contains
 * itself), and lists or mappings as mapping keys (which plain data turns into "[object Object]").
 */
function structureErrors(doc: Document): { offset: number; message: string }[] {
  const anchors = new Map<string, Node>();
  const errors: { offset: number; message: string }[] = [];
  visit(doc, {
    Pair: (_key, pair) => {
      if (isCollection(pair.key)) errors.push({ offset: pair.key.range?.[0] ?? 0, message: 'a mapping key must be text or a number, not a list or a mapping' });
    },
    Node: (_key, node, path) => {
      if (!isAlias(node)) {
        if (node.anchor) anchors.set(node.anchor, node);
        return;
      }
      const target = anchors.get(node.source);
      const offset = node.range?.[0] ?? 0;
      if (target === undefined) errors.push({ offset, message: `unresolved alias *${node.source}: set the anchor &${node.source} before the alias` });
      else if (path.includes(target)) errors.push({ offset, message: `alias *${node.source} is inside the node it names, so the data would contain itself` });
    },
  });
  return errors;
}

function firstAliasOffset(doc: Document): number {
  let offset = 0;
  visit(doc, {
    Alias: (_key, node) => {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
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
