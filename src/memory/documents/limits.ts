// Sizes every document operation enforces, named so error messages and docs can quote them.

/** The largest document accepted (content, frontmatter included): 1 MiB. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** The largest bundle archive an import inflates: 64 MiB in total. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** Passage sizes in UTF-8 bytes (issue 4 §3). Code blocks, tables and quotes may exceed the maximum: they are never split. */
export const PASSAGE_TARGET_BYTES = 1_200;
export const PASSAGE_MIN_BYTES = 400;
export const PASSAGE_MAX_BYTES = 2_400;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
  return `${bytes} bytes`;
}
