import { posix } from 'node:path';
import type { DocumentAddress } from '../../store/documents.js';
import { DocumentError } from './errors.js';

// Bundle names and document paths are checked before any storage sees them, so no path can leave
// its bundle's directory, whatever the content store does with it.

const BUNDLE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// Letters, digits, space, '.', '_' and '-'; no leading dot (hidden files, '.' and '..').
const PATH_SEGMENT = /^[\p{L}\p{N}_-][\p{L}\p{N} ._-]*$/u;
const MAX_PATH_CHARS = 240;
const MAX_DEPTH = 8;

/** Written by Syndicate itself in every bundle; documents cannot take these paths. */
export const INDEX_PATH = 'index.md';
export const LOG_PATH = 'log.md';
const RESERVED = new Set([INDEX_PATH, LOG_PATH]);

export function isBundleName(bundle: string): boolean {
  return BUNDLE_NAME.test(bundle);
}

export function checkBundleName(bundle: string): string {
  if (!isBundleName(bundle)) {
    throw new DocumentError(
      `invalid bundle name ${JSON.stringify(bundle)}: use 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit`,
    );
  }
  return bundle;
}

/** '.md' is added to a path that lacks it: agents may name a document by its slug. */
export function withMarkdownExtension(path: string): string {
  return path.endsWith('.md') ? path : `${path}.md`;
}

/** Why `path` (already ending in '.md') cannot name a document, or undefined when it can. */
export function documentPathProblem(path: string, allowReserved = false): string | undefined {
  if (path.trim() === '' || path === '.md') return 'it is empty';
  if (path.length > MAX_PATH_CHARS) return `it is longer than ${MAX_PATH_CHARS} characters`;
  if (path.includes('\\')) return "use '/' to separate folders, not '\\'";
  if (posix.isAbsolute(path) || /^[A-Za-z]:/.test(path)) return 'it escapes its bundle (absolute paths are not allowed)';
  const segments = path.split('/');
  if (segments.includes('..')) return "it escapes its bundle ('..' segments are not allowed)";
  if (segments.length > MAX_DEPTH) return `it is nested deeper than ${MAX_DEPTH} levels`;
  for (const segment of segments) {
    if (segment === '' || segment === '.') return "it has an empty or '.' segment";
    if (!PATH_SEGMENT.test(segment)) {
      return `segment ${JSON.stringify(segment)} may only hold letters, digits, spaces, '.', '_' and '-', and may not start with '.'`;
    }
  }
  if (!allowReserved && RESERVED.has(path)) return `'${path}' is maintained by Syndicate`;
  return undefined;
}

/** Normalises a document path inside `bundle` ('.md' added when missing) or refuses it with the reason. */
export function checkDocumentPath(bundle: string, path: string): string {
  const normalised = withMarkdownExtension(path);
  const problem = documentPathProblem(normalised);
  if (problem !== undefined) throw new DocumentError(`document path ${JSON.stringify(path)} in bundle '${bundle}' is refused: ${problem}`);
  return normalised;
}

export function checkAddress(bundle: string, path: string): DocumentAddress {
  return { bundle: checkBundleName(bundle), path: checkDocumentPath(bundle, path) };
}

/** The reserved files every bundle keeps. */
export function isReservedPath(path: string): boolean {
  return RESERVED.has(path);
}

export function slugOf(path: string): string {
  return path.slice(0, -'.md'.length);
}

export function formatAddress({ bundle, path }: DocumentAddress): string {
  return `${bundle}/${path}`;
}
