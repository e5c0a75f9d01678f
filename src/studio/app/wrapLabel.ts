// A group's name under its bar, where it has only its slot's width: wrapped at spaces onto the
// lines that fit, cut with an ellipsis where it is longer still, so the names of neighbouring bars
// never run into each other (the table under the chart has them whole).

function ellipsized(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
}

/** `label` in at most `maxLines` lines of at most `maxChars` characters, joined with '\n' (uPlot draws each line). */
export function wrapLabel(label: string, maxChars: number, maxLines: number): string {
  const lines: string[] = [];
  for (const word of label.trim().split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= maxChars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  const kept = [...lines.slice(0, maxLines - 1), lines.slice(maxLines - 1).join(' ')].filter((line) => line !== '');
  return kept.map((line) => ellipsized(line, maxChars)).join('\n');
}
