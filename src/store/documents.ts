// Storage for markdown document bundles: the derived index (passages, vectors, full text, links,
// content hashes), the revision history, and, for deployments that share one database, the
// documents' content itself. Every method takes the silo first and touches only that silo's rows.
// Async throughout so PostgreSQL can implement it unchanged; no SQL leaves store/.

export interface DocumentAddress {
  bundle: string;
  /** Relative to the bundle, '/'-separated, ending in '.md'. */
  path: string;
}

export interface IndexedDocument extends DocumentAddress {
  title: string;
  /** sha256 of the content the index was built from: a different hash means the index is stale. */
  contentHash: string;
  bytes: number;
  /** The embedding model that produced the document's passage vectors. */
  embeddingModel: string;
  indexedAt: number;
}

export interface PassageInput {
  /** 0, 1, 2… in document order; adjacent passages have consecutive ordinals. */
  ordinal: number;
  /** 1-based, inclusive, counted in the whole file (frontmatter included). */
  startLine: number;
  endLine: number;
  /** The passage as it appears in the document. */
  text: string;
  /** What full-text search matches: the passage with its document title and heading trail. */
  searchText: string;
  vector: Float32Array;
}

export interface DocumentLink {
  from: DocumentAddress;
  to: DocumentAddress;
  label: string;
  /** Line of the link in the source document. */
  line: number;
}

export interface LinkInput {
  to: DocumentAddress;
  label: string;
  line: number;
}

export type RevisionAction = 'write' | 'delete';

export interface RevisionInput {
  action: RevisionAction;
  /** Who made the change, e.g. 'agent:Chair', 'cli', 'outside syndicate'. */
  actor: string;
  /** Why, in the actor's words. */
  reason: string;
  at: number;
  /** Unified diff from the previous content to the new one. */
  diff: string;
  /** The content after the change; null after a delete. Kept so any revision can be rolled back to. */
  content: string | null;
}

export interface RevisionRecord extends RevisionInput, DocumentAddress {
  /** Increases with every revision of the silo. */
  id: number;
}

export interface DocumentIndexUpdate extends DocumentAddress {
  title: string;
  contentHash: string;
  bytes: number;
  embeddingModel: string;
  indexedAt: number;
  passages: readonly PassageInput[];
  links: readonly LinkInput[];
}

export interface PassageCandidate extends DocumentAddress {
  title: string;
  ordinal: number;
  startLine: number;
  endLine: number;
  text: string;
  searchText: string;
}

export interface VectorCandidate extends PassageCandidate {
  /** Cosine similarity to the query vector, in [-1, 1]. */
  similarity: number;
}

export interface VectorQuery {
  vector: Float32Array;
  /** Only passages embedded by this model are compared. */
  embeddingModel: string;
  limit: number;
  bundle?: string;
}

export interface TextQuery {
  /** Plain words; a passage matching any of them is a candidate (the store builds its own query syntax). */
  terms: readonly string[];
  limit: number;
  bundle?: string;
}

export interface DocumentStorage {
  getDocument(silo: string, address: DocumentAddress): Promise<IndexedDocument | undefined>;
  /** In bundle, then path order. */
  listDocuments(silo: string, bundle?: string): Promise<IndexedDocument[]>;
  /**
   * Replaces the document's passages, vectors, full-text rows and outgoing links, and records the
   * revision when one is given, atomically. Resolves to the revision's id (undefined without one).
   */
  commitDocument(silo: string, update: DocumentIndexUpdate, revision?: RevisionInput): Promise<number | undefined>;
  /**
   * Removes the document's index rows and outgoing links (incoming links stay, now dangling) and
   * records the revision, atomically. `eraseHistory` first deletes the document's earlier revisions,
   * and with them every copy of its content.
   */
  removeDocument(silo: string, address: DocumentAddress, revision?: RevisionInput, eraseHistory?: boolean): Promise<number | undefined>;
  /** Distinct embedding models of the silo's indexed documents. */
  embeddingModels(silo: string): Promise<string[]>;
  /** The passages most similar to the query vector, best first. */
  searchVectors(silo: string, query: VectorQuery): Promise<VectorCandidate[]>;
  /** The passages that best match the terms by full-text rank, best first. */
  searchText(silo: string, query: TextQuery): Promise<PassageCandidate[]>;
  linksFrom(silo: string, address: DocumentAddress): Promise<DocumentLink[]>;
  linksTo(silo: string, address: DocumentAddress): Promise<DocumentLink[]>;
  /** Every link whose source is in the bundle (the whole silo without one). */
  listLinks(silo: string, bundle?: string): Promise<DocumentLink[]>;
  /** Newest first. */
  listRevisions(silo: string, address: DocumentAddress, limit?: number): Promise<RevisionRecord[]>;
  getRevision(silo: string, id: number): Promise<RevisionRecord | undefined>;
  /** Content of database-backed documents (see DocumentStore in memory/documents). */
  readContent(silo: string, address: DocumentAddress): Promise<string | undefined>;
  writeContent(silo: string, address: DocumentAddress, content: string): Promise<void>;
  deleteContent(silo: string, address: DocumentAddress): Promise<boolean>;
  listContent(silo: string, bundle?: string): Promise<DocumentAddress[]>;
  /** Silos holding any document data. */
  listSilos(): Promise<string[]>;
  /** Deletes everything of the silo: index, links, revisions and stored content. */
  purgeSilo(silo: string): Promise<void>;
}
