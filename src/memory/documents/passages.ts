import { PASSAGE_MAX_BYTES, PASSAGE_MIN_BYTES, PASSAGE_TARGET_BYTES } from './limits.js';

// Splits a markdown body into passages along its structure: a heading starts a passage; fenced
// code blocks, tables and block quotes stay whole; paragraphs and lists are grouped towards the
// target size and cut only between lines.

export interface Passage {
  /** 0, 1, 2… in document order. */
  ordinal: number;
  /** 1-based, inclusive, counted in the whole file. */
  startLine: number;
  endLine: number;
  text: string;
  /** The headings the passage sits under, outermost first. */
  headings: string[];
}

type BlockKind = 'heading' | 'code' | 'table' | 'quote' | 'text';

interface Block {
  kind: BlockKind;
  /** 0-based, inclusive line indexes into the file's lines. */
  start: number;
  end: number;
}

interface Section {
  headings: string[];
  blocks: Block[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const TABLE_ROW = /^\s*\|/;
const QUOTE = /^ {0,3}>/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || TABLE_ROW.test(line) || QUOTE.test(line);
}

function readBlocks(lines: readonly string[], from: number): Block[] {
  const blocks: Block[] = [];
  let i = from;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      let end = i + 1;
      // A fence closes with the same character, at least as many times; unclosed runs to the end.
      while (end < lines.length && !new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[end]!)) end++;
      blocks.push({ kind: 'code', start: i, end: Math.min(end, lines.length - 1) });
      i = end + 1;
      continue;
    }
    if (HEADING.test(line)) {
      blocks.push({ kind: 'heading', start: i, end: i });
      i++;
      continue;
    }
    const kind: BlockKind = TABLE_ROW.test(line) ? 'table' : QUOTE.test(line) ? 'quote' : 'text';
    const continues = (next: string): boolean =>
      kind === 'table' ? TABLE_ROW.test(next) : kind === 'quote' ? QUOTE.test(next) : !isBlank(next) && !startsBlock(next);
    let end = i;
    while (end + 1 < lines.length && continues(lines[end + 1]!)) end++;
    blocks.push({ kind, start: i, end });
    i = end + 1;
  }
  return blocks;
}

function headingText(line: string): { level: number; text: string } {
  const match = HEADING.exec(line)!;
  return { level: match[1]!.length, text: (match[2] ?? '').trim() };
}

function sections(lines: readonly string[], blocks: readonly Block[]): Section[] {
  const result: Section[] = [];
  const trail: Array<{ level: number; text: string }> = [];
  let current: Section = { headings: [], blocks: [] };
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const heading = headingText(lines[block.start]!);
      while (trail.length > 0 && trail[trail.length - 1]!.level >= heading.level) trail.pop();
      trail.push(heading);
      // Headings with nothing under them but another heading ('# Guide' then '## Install') open
      // one passage together rather than a passage of a lone heading.
      const headingsOnly = current.blocks.every((b) => b.kind === 'heading');
      if (!headingsOnly) result.push(current);
      current = { headings: trail.map((h) => h.text), blocks: headingsOnly ? current.blocks : [] };
    }
    current.blocks.push(block);
  }
  if (current.blocks.length > 0) result.push(current);
  return result;
}

/**
 * Splits the body of a markdown file (its lines from `bodyStartLine`, 1-based) into passages.
 * Sizes are UTF-8 bytes of the passage's lines.
 */
export function splitPassages(lines: readonly string[], bodyStartLine: number): Passage[] {
  // bytesBefore[i]: bytes of lines[0..i) with their newlines, so a line range's size is a subtraction.
  const bytesBefore = [0];
  for (const line of lines) bytesBefore.push(bytesBefore[bytesBefore.length - 1]! + Buffer.byteLength(line, 'utf8') + 1);
  const size = (start: number, end: number): number => bytesBefore[end + 1]! - bytesBefore[start]! - 1;

  // A paragraph or list longer than the maximum is cut between lines into pieces near the target.
  const pieces = (block: Block): Block[] => {
    if (block.kind !== 'text' || size(block.start, block.end) <= PASSAGE_MAX_BYTES) return [block];
    const result: Block[] = [];
    let start = block.start;
    for (let line = block.start; line <= block.end; line++) {
      if (line > start && size(start, line) > PASSAGE_TARGET_BYTES) {
        result.push({ kind: 'text', start, end: line - 1 });
        start = line;
      }
    }
    result.push({ kind: 'text', start, end: block.end });
    return result;
  };

  const passages: Passage[] = [];
  for (const section of sections(lines, readBlocks(lines, bodyStartLine - 1))) {
    const groups: Block[][] = [];
    let group: Block[] = [];
    for (const piece of section.blocks.flatMap(pieces)) {
      const first = group[0];
      if (first !== undefined && !(group.length === 1 && first.kind === 'heading')) {
        const current = size(first.start, group[group.length - 1]!.end);
        const grown = size(first.start, piece.end);
        if (grown > PASSAGE_MAX_BYTES || (current >= PASSAGE_MIN_BYTES && grown > PASSAGE_TARGET_BYTES)) {
          groups.push(group);
          group = [];
        }
      }
      group.push(piece);
    }
    // A short tail joins the passage before it when the two fit under the maximum.
    const previous = groups[groups.length - 1];
    if (previous !== undefined && size(group[0]!.start, group[group.length - 1]!.end) < PASSAGE_MIN_BYTES
      && size(previous[0]!.start, group[group.length - 1]!.end) <= PASSAGE_MAX_BYTES) {
      previous.push(...group);
    } else {
      groups.push(group);
    }
    for (const blocks of groups) {
      const start = blocks[0]!.start;
      const end = blocks[blocks.length - 1]!.end;
      passages.push({
        ordinal: passages.length,
        startLine: start + 1,
        endLine: end + 1,
        text: lines.slice(start, end + 1).join('\n'),
        headings: section.headings,
      });
    }
  }
  return passages;
}
