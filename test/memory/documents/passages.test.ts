import { describe, expect, it } from 'vitest';
import { PASSAGE_MAX_BYTES, PASSAGE_MIN_BYTES } from '../../../src/memory/documents/limits.js';
import { splitPassages } from '../../../src/memory/documents/passages.js';

function split(text: string, bodyStartLine = 1) {
  return splitPassages(text.split('\n'), bodyStartLine);
}

/** A paragraph of about `bytes` bytes on one line. */
function paragraph(label: string, bytes: number): string {
  return `${label} ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27))}`.slice(0, bytes);
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

describe('passages', () => {
  it('starts a passage at every heading, with the headings it sits under', () => {
    const text = ['# Guide', 'Intro.', '', '## Install', 'Run it.', '', '## Use', 'Call it.'].join('\n');
    expect(split(text).map(({ startLine, endLine, headings }) => ({ startLine, endLine, headings }))).toEqual([
      { startLine: 1, endLine: 2, headings: ['Guide'] },
      { startLine: 4, endLine: 5, headings: ['Guide', 'Install'] },
      { startLine: 7, endLine: 8, headings: ['Guide', 'Use'] },
    ]);
  });

  it('keeps a heading with nothing under it together with the heading that follows', () => {
    const text = ['# Garden', '## Tomatoes', 'Full sun.', '', '## Roses', 'Shade.'].join('\n');
    expect(split(text).map(({ startLine, endLine, headings }) => ({ startLine, endLine, headings }))).toEqual([
      { startLine: 1, endLine: 3, headings: ['Garden', 'Tomatoes'] },
      { startLine: 5, endLine: 6, headings: ['Garden', 'Roses'] },
    ]);
  });

  it('counts lines in the whole file, after the frontmatter', () => {
    const text = ['---', 'title: T', '---', 'Body line.'].join('\n');
    expect(split(text, 4)).toEqual([{ ordinal: 0, startLine: 4, endLine: 4, text: 'Body line.', headings: [] }]);
  });

  it('groups a long section into passages between the minimum and maximum size', () => {
    const text = ['# Long', ...Array.from({ length: 12 }, (_, i) => `${paragraph(`p${i}`, 500)}\n`)].join('\n');
    const passages = split(text);
    expect(passages.length).toBeGreaterThan(3);
    for (const passage of passages) {
      expect(bytes(passage.text)).toBeGreaterThanOrEqual(PASSAGE_MIN_BYTES);
      expect(bytes(passage.text)).toBeLessThanOrEqual(PASSAGE_MAX_BYTES);
    }
    expect(passages.map((p) => p.ordinal)).toEqual(passages.map((_, i) => i));
  });

  it('never splits a fenced code block, even one over the maximum and with blank lines inside', () => {
    const code = ['```ts', ...Array.from({ length: 120 }, (_, i) => (i % 10 === 0 ? '' : `const value${i} = compute(${i});`)), '```'];
    const text = ['# Code', 'Before.', '', ...code, '', 'After.'].join('\n');
    const fence = split(text).find((passage) => passage.text.includes('```ts'))!;
    expect(fence.text).toContain(code.join('\n'));
    expect(bytes(fence.text)).toBeGreaterThan(PASSAGE_MAX_BYTES);
  });

  it('never splits a table or a block quote', () => {
    const table = ['| name | value |', '| --- | --- |', ...Array.from({ length: 80 }, (_, i) => `| row ${i} | ${paragraph('v', 30)} |`)];
    const quote = Array.from({ length: 60 }, (_, i) => `> ${paragraph(`q${i}`, 50)}`);
    const text = ['# Data', ...table, '', paragraph('between', 600), '', ...quote].join('\n');
    const passages = split(text);
    expect(passages.some((p) => p.text.includes(table.join('\n')))).toBe(true);
    expect(passages.some((p) => p.text.includes(quote.join('\n')))).toBe(true);
  });

  it('cuts an overlong paragraph only between its lines', () => {
    const lines = Array.from({ length: 60 }, (_, i) => paragraph(`line${i}`, 80));
    const passages = split(lines.join('\n'));
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.flatMap((p) => p.text.split('\n'))).toEqual(lines);
  });

  it('joins a short tail to the passage before it', () => {
    const text = [paragraph('a', 700), '', paragraph('b', 700), '', 'Tail.'].join('\n');
    const passages = split(text);
    expect(passages[passages.length - 1]!.text.endsWith('Tail.')).toBe(true);
    expect(passages[passages.length - 1]!.text.startsWith('b ')).toBe(true);
  });

  it('yields no passage for an empty body', () => {
    expect(split('---\ntitle: x\n---\n', 4)).toEqual([]);
  });
});
