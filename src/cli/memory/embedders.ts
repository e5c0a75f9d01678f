import { loadProjectConfig } from '../../config/projectConfig.js';
import type { Embedder } from '../../memory/embeddings/embedder.js';
import { LOCAL_EMBEDDING_MODEL } from '../../memory/embeddings/localEmbedder.js';
import { resolveEmbedder } from '../../memory/embeddings/resolveEmbedder.js';
import { siloModels, type SiloContents } from './memoryStore.js';

// Which embedder a memory command uses. Vectors of two models cannot be compared, so a command that
// adds or compares vectors uses the model the silo's vectors already came from.

/** The embedder a `memory_embedding` value names (undefined: the built-in local one), with the project config's servers. */
export function embedderFor(spec: string | undefined): Embedder {
  return resolveEmbedder(spec, process.env, loadProjectConfig().providers);
}

/** The embedder of the silo's own model (facts' first), or `fallback` for a silo without vectors; loaded on first use. */
export function siloEmbedder(contents: SiloContents, fallback?: string): Embedder {
  const model = siloModels(contents)[0];
  if (model === undefined) return embedderFor(fallback);
  return deferredEmbedder(model, async () => {
    try {
      return embedderFor(model);
    } catch (error) {
      throw new Error(
        `silo '${contents.silo}' holds vectors from the embedding model '${model}', which cannot be loaded here (${(error as Error).message}). ` +
          `Move the silo to one that can: syndicate memory reembed --silo ${contents.silo} --embedding ${LOCAL_EMBEDDING_MODEL} --yes`,
        { cause: error },
      );
    }
  });
}

/** An embedder resolved on its first embed: a command that never embeds works even where the model cannot be loaded. */
function deferredEmbedder(model: string, resolve: () => Promise<Embedder>): Embedder {
  let resolving: Promise<Embedder> | undefined;
  return {
    model,
    // Stores size vectors by their length; nothing here reads this before embedding.
    dimensions: 0,
    async embed(texts, signal) {
      resolving ??= resolve();
      return (await resolving).embed(texts, signal);
    },
  };
}
