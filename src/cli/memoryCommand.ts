import { InvalidArgumentError, Option, type Command } from 'commander';
import { FACT_TAGS, type FactTag } from '../store/facts.js';
import type {
  MemoryDupesOptions, MemoryExportOptions, MemoryImportOptions, MemoryListOptions, MemoryOptions, MemoryReembedOptions, MemorySiloOptions,
} from './options.js';
import { DB_HELP, DB_OPTION } from './storeOption.js';

// `syndicate memory <sub>`: the admin face of long-term memory (issue 4 §4). Like program.ts this
// loads only commander: each action imports its module from ./memory/ on first use.

const SILO_HELP = 'the silo to work on (required; `syndicate memory silos` lists them)';
const YES_HELP = 'do it: without --yes the command only prints what it would do';

const MEMORY_HELP = `
Document bundles are read from and written to memory/<silo>/ beside the SQLite file
(SYNDICATE_DOCUMENTS_DIR/<silo>/ when set; on PostgreSQL, the database unless it is set).

Exit codes:
  0    ok (a dry run included)
  1    the silo, fact or bundle was not found, the import was refused, or the command failed
  2    usage error (unknown command or option, missing --silo, malformed silo id)`;

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return parsed;
}

function similarity(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !(parsed > 0 && parsed <= 1)) throw new InvalidArgumentError('expected a cosine similarity above 0 and at most 1, e.g. 0.93');
  return parsed;
}

function factTag(value: string): FactTag {
  const tag = value.toUpperCase();
  if (!(FACT_TAGS as readonly string[]).includes(tag)) throw new InvalidArgumentError(`expected one of ${FACT_TAGS.join(', ')}`);
  return tag as FactTag;
}

function withCommon(command: Command): Command {
  return command.option(DB_OPTION, DB_HELP).option('--json', 'print machine-readable JSON instead of text').addHelpText('after', MEMORY_HELP);
}

function withSiloOption(command: Command): Command {
  return withCommon(command.requiredOption('--silo <id>', SILO_HELP));
}

function withYesOption(command: Command): Command {
  return withSiloOption(command.option('--yes', YES_HELP));
}

/** Adds `memory` and its subcommands to the program. */
export function addMemoryCommand(program: Command): void {
  const memory = program
    .command('memory')
    .summary('inspect and administer long-term memory: facts and document bundles')
    .description('Inspect and administer long-term memory, one silo (one syndicate and user) at a time. Commands that change memory only print what they would do unless given --yes.')
    .addHelpText('after', MEMORY_HELP);

  withCommon(memory.command('silos').summary('list every silo').description('List every silo: its facts (active and superseded), documents and embedding model.')).action(
    async (options: MemoryOptions) => {
      const { silosCommand } = await import('./memory/silosCommand.js');
      process.exitCode = await silosCommand(options);
    },
  );

  withSiloOption(
    memory
      .command('list')
      .summary("list a silo's facts, newest first (documents with --docs)")
      .description("List a silo's facts, newest first, or with --docs its documents.")
      .option('--tag <tag>', `only facts with this tag (${FACT_TAGS.join(', ')})`, factTag)
      .addOption(new Option('--status <status>', 'only active, superseded or merged facts (restatements kept linked to the fact they restate)').choices(['active', 'superseded', 'merged']))
      .option('--limit <n>', 'at most this many facts', positiveInteger)
      .option('--docs', 'list the documents of the silo instead of its facts'),
  ).action(async (options: MemoryListOptions) => {
    const { listCommand } = await import('./memory/listCommand.js');
    process.exitCode = await listCommand(options);
  });

  withSiloOption(
    memory
      .command('show')
      .summary('show a fact with its supersession chain and provenance')
      .description('Show one fact: its fields, the corrections that retired it or that it retired, and the session turn it came from.')
      .argument('<fact-id>', 'the fact id (from memory list)'),
  ).action(async (id: string, options: MemorySiloOptions) => {
    const { showCommand } = await import('./memory/showCommand.js');
    process.exitCode = await showCommand(id, options);
  });

  withSiloOption(
    memory
      .command('dupes')
      .summary('find active facts that say the same thing')
      .description(
        "Find groups of active facts with the same tag whose vectors are at least --threshold similar: restatements that slipped past the duplicate check. The facts' texts are embedded again with the silo's embedding model.",
      )
      .option('--threshold <similarity>', 'cosine similarity at or above which two facts are duplicates', similarity, 0.93),
  ).action(async (options: MemoryDupesOptions) => {
    const { dupesCommand } = await import('./memory/dupesCommand.js');
    process.exitCode = await dupesCommand(options);
  });

  withYesOption(
    memory
      .command('delete')
      .summary('delete facts for good (dry run unless --yes)')
      .description('Delete facts with their vectors and text index entries: a real delete, not a supersession.')
      .argument('<fact-id...>', 'the fact ids (from memory list or memory dupes)'),
  ).action(async (ids: string[], options: MemorySiloOptions) => {
    const { deleteCommand } = await import('./memory/deleteCommand.js');
    process.exitCode = await deleteCommand(ids, options);
  });

  withSiloOption(
    memory
      .command('unmerge')
      .summary('make a merged restatement an active fact of its own again')
      .description('Undo one merge: a fact that was recognised as a restatement of another and kept linked to it (status merged) becomes an active fact of its own. Nothing is deleted.')
      .argument('<fact-id>', 'the merged fact id (from memory list --status merged or memory show)'),
  ).action(async (id: string, options: MemorySiloOptions) => {
    const { unmergeCommand } = await import('./memory/unmergeCommand.js');
    process.exitCode = await unmergeCommand(id, options);
  });

  withSiloOption(
    memory
      .command('export')
      .summary('write a document bundle to a zip file')
      .description('Write a document bundle of the silo to a zip file (one folder named after the bundle). An existing file is never overwritten.')
      .requiredOption('--bundle <name>', 'the bundle to export')
      .requiredOption('--out <file.zip>', 'the zip file to write'),
  ).action(async (options: MemoryExportOptions) => {
    const { exportCommand } = await import('./memory/exportCommand.js');
    process.exitCode = await exportCommand(options);
  });

  withYesOption(
    memory
      .command('import')
      .summary('import a document bundle from a zip file (dry run unless --yes)')
      .description('Import a document bundle from a zip file. Every entry is checked first; any problem, or a collision with a different document without --overwrite, imports nothing.')
      .argument('<file.zip>', 'the zip file (as written by memory export)')
      .option('--bundle <name>', "import into this bundle instead of the one the archive's folder names")
      .option('--overwrite', 'replace documents whose content differs from the archive (collisions)')
      .option('--embedding <model>', 'embedding model for a silo that has no vectors yet (default: local)'),
  ).action(async (file: string, options: MemoryImportOptions) => {
    const { importCommand } = await import('./memory/importCommand.js');
    process.exitCode = await importCommand(file, options);
  });

  withYesOption(
    memory
      .command('reembed')
      .summary("re-embed a silo's facts and documents with another model (dry run unless --yes)")
      .description("Re-embed every fact and document of the silo with the embedding model given by --embedding, or by a syndicate file's memory_embedding. Needed after the model changes.")
      .option('--embedding <model>', 'local, gemini-embedding-001, text-embedding-3-small, ollama/<model>, openai-compatible:<name>/<model>')
      .option('--syndicate <file|name>', "use this syndicate's memory_embedding (local when it has none)"),
  ).action(async (options: MemoryReembedOptions) => {
    const { reembedCommand } = await import('./memory/reembedCommand.js');
    process.exitCode = await reembedCommand(options);
  });

  withYesOption(
    memory
      .command('purge')
      .summary('delete everything of a silo (dry run unless --yes)')
      .description('Delete everything of the silo: facts, vectors, ingestion marks, documents, their files, links and revisions. This cannot be undone.'),
  ).action(async (options: MemorySiloOptions) => {
    const { purgeCommand } = await import('./memory/purgeCommand.js');
    process.exitCode = await purgeCommand(options);
  });
}
