import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { ImportReport } from '../../memory/documents/index.js';
import { ExitCode } from '../exitCodes.js';
import type { MemoryImportOptions } from '../options.js';
import { UsageError } from '../usageError.js';
import { embedderFor, siloEmbedder } from './embedders.js';
import { CLI_ACTOR, checkSilo, siloContents, siloModels, withMemoryStore } from './memoryStore.js';
import { dryRunNote, plural, printJson, write } from './output.js';

function list(title: string, paths: readonly string[]): string[] {
  return paths.length === 0 ? [] : [`${title}:`, ...paths.map((path) => `  ${path}`)];
}

function describe(report: ImportReport, silo: string, options: MemoryImportOptions): string {
  const target = `bundle ${report.bundle ?? '(none)'} of silo ${silo}`;
  const lines: string[] = [];
  if (report.problems.length > 0) {
    lines.push(`Refused: the archive cannot be imported into ${target}; nothing was imported. Fix these entries and try again:`, ...report.problems.map((problem) => `  ${problem}`));
    return `${lines.join('\n')}\n`;
  }
  const refused = report.collisions.length > 0 && !options.overwrite;
  if (report.imported) lines.push(`Imported into ${target}: ${plural(report.added.length, 'new document')}, ${plural(report.collisions.length, 'replaced document')}.`);
  else if (refused) {
    const one = report.collisions.length === 1;
    lines.push(`Refused: ${plural(report.collisions.length, 'document')} of the archive ${one ? 'differs from the one' : 'differ from the ones'} already in ${target}; nothing ${options.yes ? 'was' : 'would be'} imported.`);
  }
  else lines.push(`Would import into ${target}: ${plural(report.added.length, 'new document')}, ${plural(report.collisions.length, 'replaced document')}.`);
  lines.push(
    ...list('New', report.added),
    ...list(options.overwrite ? 'Replaced (collisions)' : 'Collisions (different content already stored)', report.collisions),
    ...list('Unchanged (same content)', report.unchanged),
    ...list('Skipped (the bundle keeps its own index.md and log.md)', report.skipped),
  );
  if (refused) lines.push('Run again with --overwrite to replace them (their earlier content stays in their revisions).');
  else if (!options.yes) lines.push(dryRunNote('import'));
  return `${lines.join('\n')}\n`;
}

async function readArchive(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    process.stderr.write(`No file ${path}; nothing was imported. Give the path of a zip file written by syndicate memory export.\n`);
    return undefined;
  }
}

/** `memory import`: a bundle from a zip file, checked in full first; a dry run unless --yes. */
export async function importCommand(file: string, options: MemoryImportOptions): Promise<number> {
  const silo = checkSilo(options.silo);
  const path = resolve(file);
  const archive = await readArchive(path);
  if (archive === undefined) return ExitCode.failed;
  return withMemoryStore(options, true, async (store, platform) => {
    const contents = await siloContents(store!, silo);
    const models = contents ? siloModels(contents) : [];
    if (options.embedding !== undefined && models.length > 0 && embedderFor(options.embedding).model !== models[0]) {
      throw new UsageError(`silo ${silo} holds vectors from '${models[0]}', so imported documents are embedded with it; leave out --embedding, or first run: syndicate memory reembed --silo ${silo} --embedding ${options.embedding}`);
    }
    const embedder = contents ? siloEmbedder(contents, options.embedding) : embedderFor(options.embedding);
    const report = await (await platform.documents(embedder)).importBundle(silo, archive, {
      actor: CLI_ACTOR,
      reason: `syndicate memory import ${basename(path)}`,
      bundle: options.bundle,
      overwrite: options.overwrite,
      dryRun: !options.yes,
    });
    if (options.json) printJson({ silo, dryRun: !options.yes, ...report });
    else write(describe(report, silo, options));
    const refused = report.problems.length > 0 || (report.collisions.length > 0 && !options.overwrite);
    return refused ? ExitCode.failed : ExitCode.ok;
  });
}
