import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Agents' and documents' markdown, rendered and then sanitized: model output is untrusted text.

export function Markdown({ text }: { text: string }) {
  const html = DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }));
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
