import type { DocumentAddress } from '../../store/documents.js';

// Where documents' content lives. Documents keep their index, links and revisions in the Store;
// the text itself lives here: plain markdown files by default (fileContentStore), or the database
// when several machines share one store (databaseContentStore). Callers check silo, bundle and path
// before calling (see paths.ts).
export interface DocumentContentStore {
  /** 'files' when the content can also be edited outside Syndicate. */
  readonly kind: 'files' | 'database';
  read(silo: string, address: DocumentAddress): Promise<string | undefined>;
  /** sha256 of the content (see contentHash.ts), undefined when there is none: how a sync spots changed documents cheaply. */
  hash(silo: string, address: DocumentAddress): Promise<string | undefined>;
  /** Replaces the content whole: a reader never sees half a document. */
  write(silo: string, address: DocumentAddress, content: string): Promise<void>;
  /** Returns false when there was no such document. */
  remove(silo: string, address: DocumentAddress): Promise<boolean>;
  /** Every '.md' file of the bundle (of the silo without one), index.md and log.md included, in bundle then path order. */
  list(silo: string, bundle?: string): Promise<DocumentAddress[]>;
  /** Deletes all of the silo's content. */
  purge(silo: string): Promise<void>;
}
