// Line diffs for revisions, in unified format (what `diff -u` and `git diff` print), computed with
// Myers' O(ND) algorithm after trimming the common head and tail, so a small edit to a large
// document costs little.

type Edit = { op: ' ' | '-' | '+'; line: string };

const CONTEXT_LINES = 3;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function myers(a: readonly string[], b: readonly string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk the trace back from (n, m) to (0, 0).
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const saved = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && saved[offset + k - 1]! < saved[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : saved[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      edits.push({ op: ' ', line: a[x]! });
    }
    if (d > 0) {
      if (x === prevX) edits.push({ op: '+', line: b[--y]! });
      else edits.push({ op: '-', line: a[--x]! });
    }
  }
  return edits.reverse();
}

function lineEdits(before: readonly string[], after: readonly string[]): Edit[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  return [
    ...before.slice(0, head).map((line): Edit => ({ op: ' ', line })),
    ...myers(before.slice(head, before.length - tail), after.slice(head, after.length - tail)),
    ...before.slice(before.length - tail).map((line): Edit => ({ op: ' ', line })),
  ];
}

/** A unified diff from `before` to `after` ('' when they are equal). Pass '' for a document that did not exist. */
export function unifiedDiff(label: string, before: string, after: string): string {
  if (before === after) return '';
  const edits = lineEdits(splitLines(before), splitLines(after));
  const out = [`--- ${before === '' ? '/dev/null' : `a/${label}`}`, `+++ ${after === '' ? '/dev/null' : `b/${label}`}`];
  // Line numbers in before (a) and after (b) at each edit.
  const aLine: number[] = [];
  const bLine: number[] = [];
  let a = 1;
  let b = 1;
  for (const edit of edits) {
    aLine.push(a);
    bLine.push(b);
    if (edit.op !== '+') a++;
    if (edit.op !== '-') b++;
  }
  let i = 0;
  while (i < edits.length) {
    if (edits[i]!.op === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT_LINES);
    let end = i;
    // Extend the hunk while the next change is within twice the context of the last one.
    for (let j = i; j < edits.length && j <= end + 2 * CONTEXT_LINES; j++) if (edits[j]!.op !== ' ') end = j;
    const stop = Math.min(edits.length, end + CONTEXT_LINES + 1);
    const hunk = edits.slice(start, stop);
    const aCount = hunk.filter((e) => e.op !== '+').length;
    const bCount = hunk.filter((e) => e.op !== '-').length;
    const aStart = aCount === 0 ? aLine[start]! - 1 : aLine[start]!;
    const bStart = bCount === 0 ? bLine[start]! - 1 : bLine[start]!;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const edit of hunk) out.push(`${edit.op}${edit.line}`);
    i = stop;
  }
  return `${out.join('\n')}\n`;
}

/** Lines added and removed by a unified diff. */
export function diffStat(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++ ')) added++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed++;
  }
  return { added, removed };
}
