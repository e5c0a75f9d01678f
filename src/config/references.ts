import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

// Finding and reading the files a syndicate is made of: the root file and its yaml_reference mounts.

export type SourceText = { text: string } | { error: string };

export function readSource(file: string): SourceText {
  try {
    return { text: readFileSync(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { error: `file not found (looked for ${path.resolve(file)})` };
    return { error: `cannot read the file: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export type ReferencedSource = { file: string; text: string } | { error: string };

/** The real path and text of the file a yaml_reference names, or why it cannot be mounted. */
export function readReference(reference: string, fromFile: string, jail: string, chain: readonly string[]): ReferencedSource {
  const resolved = resolveReference(reference, fromFile, jail, chain);
  if ('error' in resolved) return resolved;
  const read = readSource(resolved.file);
  return 'error' in read ? read : { file: resolved.file, text: read.text };
}

/**
 * The real path a yaml_reference names. It must stay inside `jail` (the root file's folder, real path)
 * so a syndicate cannot pull in files from elsewhere on disk, and must not mount a file already in `chain`.
 */
function resolveReference(reference: string, fromFile: string, jail: string, chain: readonly string[]): { file: string } | { error: string } {
  const target = path.resolve(path.dirname(fromFile), reference);
  const outside = `'${reference}' is outside ${jail} — referenced files must be in the root file's folder or below it`;
  if (!isInside(jail, target)) return { error: outside };
  let file: string;
  try {
    file = realpathSync(target);
  } catch {
    return { error: `file not found: ${reference} (looked for ${target})` };
  }
  // Checked again on the real path so a symlink cannot lead out of the folder.
  if (!isInside(jail, file)) return { error: outside };
  if (chain.includes(file)) {
    const cycle = [...chain, file].map((step) => path.relative(jail, step)).join(' -> ');
    return { error: `cycle: ${cycle} — a syndicate cannot mount itself, directly or through other files` };
  }
  if (!statSync(file).isFile()) return { error: `'${reference}' is not a file` };
  return { file };
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** How a referenced file is named in issues: relative to the referencing file, as the person wrote it. */
export function referenceDisplayPath(fromDisplay: string, reference: string): string {
  return path.isAbsolute(reference) ? reference : path.join(path.dirname(fromDisplay), reference);
}
