// What a model sees of a long page: a head and a tail within the character budget, with the
// middle left out and marked, and an offset to continue reading from. The tail is kept because
// the end of a page (conclusions, answers, totals) is often what was wanted.

export interface TextWindow {
  text: string;
  /** Where the shown text starts. */
  offset: number;
  totalChars: number;
  /** Where to continue with `offset`; undefined when the rest of the page was shown. */
  nextOffset: number | undefined;
}

/** Share of the budget given to the head when a page is cut. */
const HEAD_SHARE = 0.8;

export function textWindow(text: string, offset: number, budget: number): TextWindow {
  const start = Math.min(offset, text.length);
  const rest = text.length - start;
  if (rest <= budget) return { text: text.slice(start), offset: start, totalChars: text.length, nextOffset: undefined };
  const headChars = Math.floor(budget * HEAD_SHARE);
  const tailChars = budget - headChars;
  const headEnd = start + headChars;
  const tailStart = text.length - tailChars;
  const marker = `\n\n[… ${tailStart - headEnd} characters left out here (${headEnd}-${tailStart} of ${text.length}); call web_extract again with offset ${headEnd} to read them …]\n\n`;
  return { text: `${text.slice(start, headEnd)}${marker}${text.slice(tailStart)}`, offset: start, totalChars: text.length, nextOffset: headEnd };
}
