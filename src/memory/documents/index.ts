// Markdown document bundles (issue 4 §3): what the runtime, CLI and server use.
export { createDocuments } from './documents.js';
export type {
  ChangeRequest, ChangeResult, DeleteRequest, DocumentSummary, Documents, DocumentsOptions, FollowedLink, FollowResult,
  GraphEdge, GraphNode, GraphResult, ListResult, ReadResult, RevisionSummary, RollbackRequest, SearchResult, WriteRequest,
} from './documents.js';
export type { ImportOptions, ImportReport } from './bundleArchive.js';
export type { DocumentContentStore } from './contentStore.js';
export { databaseContentStore } from './databaseContentStore.js';
export { DocumentError, DocumentNotFoundError } from './errors.js';
export { fileContentStore } from './fileContentStore.js';
export { MAX_DOCUMENT_BYTES, MAX_IMPORT_BYTES } from './limits.js';
export { asReferenceData } from './referenceData.js';
export type { SearchHit, SearchOptions } from './searchDocuments.js';
export type { SyncReport } from './syncDocuments.js';
export { createDocumentTools, type DocumentToolsOptions } from './tools.js';
