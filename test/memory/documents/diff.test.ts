import { describe, expect, it } from 'vitest';
import { diffStat, unifiedDiff } from '../../../src/memory/documents/diff.js';

describe('unified diff', () => {
  it('is empty when nothing changed', () => {
    expect(unifiedDiff('a.md', 'x\n', 'x\n')).toBe('');
  });

  it('shows a new document as all additions from /dev/null', () => {
    expect(unifiedDiff('a.md', '', 'one\ntwo\n')).toBe('--- /dev/null\n+++ b/a.md\n@@ -0,0 +1,2 @@\n+one\n+two\n');
  });

  it('shows a changed line with three lines of context', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n');
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8', '9'].join('\n');
    expect(unifiedDiff('a.md', before, after)).toBe(
      ['--- a/a.md', '+++ b/a.md', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8', ''].join('\n'),
    );
  });

  it('splits changes far apart into separate hunks', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[1] = 'changed 2';
    after[27] = 'changed 28';
    const diff = unifiedDiff('a.md', before.join('\n'), after.join('\n'));
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,5 +1,5 @@', '@@ -25,6 +25,6 @@']);
    expect(diffStat(diff)).toEqual({ added: 2, removed: 2 });
  });

  it('finds a minimal diff for insertions and deletions in the middle', () => {
    const diff = unifiedDiff('a.md', 'a\nb\nc\nd\n', 'a\nc\nd\ne\n');
    expect(diff).toBe('--- a/a.md\n+++ b/a.md\n@@ -1,4 +1,4 @@\n a\n-b\n c\n d\n+e\n');
  });
});
