import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

// Images live in one folder, `outputs/` in the data directory, and the image tools read and
// write nowhere else: a path is resolved through every symbolic link before it is trusted.

export const OUTPUTS_FOLDER = 'outputs';

/** The folder's real path, created when missing. */
export function openOutputsFolder(folder: string): string {
  mkdirSync(folder, { recursive: true });
  return realpathSync(folder);
}

/** The real path of `file` (relative to the folder, or absolute) when it is a file inside the folder; throws saying why not. */
export function fileInOutputs(folder: string, file: string): string {
  const root = openOutputsFolder(folder);
  let real: string;
  try {
    real = realpathSync(path.resolve(root, file));
  } catch {
    throw new Error(`no file '${file}' in ${root}: pass a path that generate_image returned`);
  }
  const relative = path.relative(root, real);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`'${file}' is outside ${root}: only images under the outputs folder can be inspected`);
  }
  return real;
}
