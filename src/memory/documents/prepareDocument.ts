import type { DocumentAddress, DocumentIndexUpdate, LinkInput } from '../../store/documents.js';
import type { Embedder } from '../embeddings/embedder.js';
import { contentHash } from './contentHash.js';
import { DocumentError } from './errors.js';
import { documentTitle, parseFrontmatter } from './frontmatter.js';
import { formatBytes, MAX_DOCUMENT_BYTES } from './limits.js';
import { extractLinks } from './links.js';
import { splitPassages, type Passage } from './passages.js';
import { formatAddress, slugOf } from './paths.js';

// Everything about a document that can be known without an embedding model, checked before anything
// is stored: size, frontmatter, title, passages, links.

export interface PreparedDocument extends DocumentAddress {
  content: string;
  contentHash: string;
  bytes: number;
  title: string;
  frontmatter: Record<string, unknown>;
  passages: Passage[];
  links: LinkInput[];
}

/** `file` names the document in error messages (e.g. 'notes/plan.md' or an archive entry). */
export function prepareDocument(address: DocumentAddress, content: string, file = formatAddress(address)): PreparedDocument {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_DOCUMENT_BYTES) {
    throw new DocumentError(`${file} is ${formatBytes(bytes)}: documents are limited to ${formatBytes(MAX_DOCUMENT_BYTES)}; split it into several documents`);
  }
  const { frontmatter, bodyStartLine } = parseFrontmatter(file, content);
  const lines = content.split('\n');
  return {
    ...address,
    content,
    contentHash: contentHash(content),
    bytes,
    title: documentTitle(frontmatter, lines, bodyStartLine) ?? slugOf(address.path),
    frontmatter,
    passages: splitPassages(lines, bodyStartLine),
    links: extractLinks(address.bundle, address.path, lines),
  };
}

/** What full-text search and the embedding see for a passage: where it sits, then its text. */
function searchText(document: PreparedDocument, passage: Passage): string {
  const trail = [document.title, ...passage.headings.filter((heading) => heading !== document.title)];
  return `${trail.join(' › ')}\n${passage.text}`;
}

/** Embeds the passages of each document (one batch per call, so the embedder can batch well). */
export async function embedDocuments(documents: readonly PreparedDocument[], embedder: Embedder, now: number, signal?: AbortSignal): Promise<DocumentIndexUpdate[]> {
  const texts = documents.flatMap((document) => document.passages.map((passage) => searchText(document, passage)));
  const vectors = texts.length === 0 ? [] : await embedder.embed(texts, signal);
  if (vectors.length !== texts.length) {
    throw new Error(`embedder ${embedder.model} returned ${vectors.length} vectors for ${texts.length} passages`);
  }
  let next = 0;
  return documents.map((document) => ({
    bundle: document.bundle,
    path: document.path,
    title: document.title,
    contentHash: document.contentHash,
    bytes: document.bytes,
    embeddingModel: embedder.model,
    indexedAt: now,
    links: document.links,
    passages: document.passages.map((passage) => ({
      ordinal: passage.ordinal,
      startLine: passage.startLine,
      endLine: passage.endLine,
      text: passage.text,
      searchText: texts[next]!,
      vector: vectors[next++]!,
    })),
  }));
}
