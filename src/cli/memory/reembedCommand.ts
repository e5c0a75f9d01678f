import { reembedSilo } from '../../memory/facts/reembedSilo.js';
import type { Embedder } from '../../memory/embeddings/embedder.js';
import { ExitCode } from '../exitCodes.js';
import { bindingsOf, loadDefinition } from '../loadDefinition.js';
import type { MemoryReembedOptions } from '../options.js';
import { UsageError } from '../usageError.js';
import { embedderFor } from './embedders.js';
import { siloModels, withSilo } from './memoryStore.js';
import { dryRunNote, plural, printJson, write } from './output.js';

/** The target: --embedding, or the memory_embedding of --syndicate; exactly one, so a re-embedding is never a guess. */
function targetEmbedder(options: MemoryReembedOptions): Embedder {
  if ((options.embedding === undefined) === (options.syndicate === undefined)) {
    throw new UsageError('say which embedding model to re-embed with: --embedding <model> (e.g. local), or --syndicate <file|name> to use its memory_embedding');
  }
  if (options.embedding !== undefined) return embedderFor(options.embedding);
  return embedderFor(loadDefinition(options.syndicate!, bindingsOf({})).memoryEmbedding);
}

/** `memory reembed`: every fact and document of the silo embedded again with one model; a dry run unless --yes. */
export function reembedCommand(options: MemoryReembedOptions): Promise<number> {
  const embedder = targetEmbedder(options);
  const { silo } = options;
  return withSilo(options, async (store, contents, platform) => {
    const from = siloModels(contents);
    const plan = { silo, dryRun: !options.yes, from, to: embedder.model, facts: contents.facts, documents: contents.documents };
    if (!options.yes) {
      if (options.json) printJson(plan);
      else {
        const source = from.length === 0 ? 'no vectors yet' : from.join(' and ');
        write(`Would re-embed ${plural(contents.facts, 'fact')} and ${plural(contents.documents, 'document')} of silo ${silo} from ${source} to ${embedder.model}.\n${dryRunNote('re-embed')}\n`);
      }
      return ExitCode.ok;
    }
    // Facts switch model in one transaction; documents one by one, so an interrupted run is finished by running it again.
    const facts = await reembedSilo(store.facts, embedder, silo);
    const documents = await (await platform.documents(embedder)).reembed(silo);
    if (options.json) printJson({ ...plan, facts, documents });
    else write(`Re-embedded ${plural(facts, 'fact')} and ${plural(documents, 'document')} of silo ${silo} with ${embedder.model}.\n`);
    return ExitCode.ok;
  });
}
