import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ExitCode } from '../exitCodes.js';
import type { MemoryExportOptions } from '../options.js';
import { siloEmbedder } from './embedders.js';
import { withSilo } from './memoryStore.js';
import { plural, printJson, write } from './output.js';

/** `memory export`: a bundle of the silo to a zip file, never over an existing file. */
export function exportCommand(options: MemoryExportOptions): Promise<number> {
  const out = resolve(options.out);
  return withSilo(options, async (_store, contents, platform) => {
    const documents = await platform.documents(siloEmbedder(contents));
    const archive = await documents.exportBundle(options.silo, options.bundle);
    try {
      await writeFile(out, archive, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      process.stderr.write(`${out} already exists; nothing was written. Choose another --out, or move the file away first.\n`);
      return ExitCode.failed;
    }
    const count = (await documents.list(options.silo, options.bundle)).documents.length;
    if (options.json) printJson({ silo: options.silo, bundle: options.bundle, out, documents: count, bytes: archive.length });
    else write(`Exported bundle ${options.bundle} of silo ${options.silo} (${plural(count, 'document')}, ${archive.length} bytes) to ${out}.\n`);
    return ExitCode.ok;
  });
}
