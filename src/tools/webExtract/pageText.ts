import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

// Main-content text of an HTML page: Readability (Firefox Reader View's extractor) run on a
// linkedom document, then turned into plain text that keeps paragraphs, headings and list
// items apart. Pages Readability finds no article in (link lists, app pages) fall back to the
// visible text of <body>, and say so.

export interface PageText {
  title: string;
  text: string;
  /** 'article' when Readability found the main content, 'page' when the whole body's text is given. */
  extraction: 'article' | 'page';
  byline?: string;
  siteName?: string;
}

const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
  'HEADER', 'HR', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TR', 'UL',
]);
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'BUTTON', 'SELECT', 'INPUT', 'TEXTAREA']);
const HEADINGS: Record<string, string> = { H1: '# ', H2: '## ', H3: '### ', H4: '#### ', H5: '##### ', H6: '###### ' };

interface TextNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TextNode>;
}

function collect(node: TextNode, parts: string[], inPre: boolean): void {
  if (node.nodeType === 3) {
    parts.push(inPre ? (node.textContent ?? '') : (node.textContent ?? '').replace(/\s+/g, ' '));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const name = node.nodeName.toUpperCase();
  if (SKIPPED.has(name)) return;
  if (name === 'BR') return void parts.push('\n');
  const block = BLOCKS.has(name);
  if (block) parts.push('\n\n');
  if (HEADINGS[name]) parts.push(HEADINGS[name]);
  if (name === 'LI') parts.push('\n- ');
  if (name === 'TD' || name === 'TH') parts.push(' | ');
  for (let i = 0; i < node.childNodes.length; i++) collect(node.childNodes[i]!, parts, inPre || name === 'PRE');
  if (block) parts.push('\n\n');
}

export function nodeText(node: unknown): string {
  const parts: string[] = [];
  collect(node as TextNode, parts, false);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, '').replace(/^ (?=\S)/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function pageText(html: string, url: string): PageText {
  const { document } = parseHTML(html);
  // Readability resolves relative links against the document's URL; linkedom's document satisfies what it reads (the DOM typings are not loaded here).
  Object.defineProperty(document, 'documentURI', { value: url, configurable: true });
  const fallbackTitle = (document.querySelector('title')?.textContent ?? '').trim();
  const article = new Readability<unknown>(document as never, { serializer: (node) => node }).parse();
  const text = article?.content ? nodeText(article.content) : '';
  if (article && text !== '') {
    return {
      title: (article.title ?? fallbackTitle).trim(),
      text,
      extraction: 'article',
      ...(article.byline ? { byline: article.byline.trim() } : {}),
      ...(article.siteName ? { siteName: article.siteName.trim() } : {}),
    };
  }
  // Readability strips the document it reads, so the body's text comes from a fresh parse.
  const { document: fresh } = parseHTML(html);
  return { title: fallbackTitle, text: nodeText(fresh.body ?? fresh), extraction: 'page' };
}
