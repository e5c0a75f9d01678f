import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Store } from '../../store/store.js';
import type { Tool } from '../../core/tool.js';
import { assertSilo } from '../../core/silo.js';
import type { Embedder } from '../embeddings/embedder.js';
import { calibrationFor } from './calibration.js';
import { extractFacts } from './extractFacts.js';
import { modelJudge } from './factJudge.js';
import { RememberSchema, type RememberInput } from './fact.js';
import { instantStart } from './instant.js';
import { loadMemoryTool, type LoadMemoryInput } from './loadMemoryTool.js';
import { recallFacts, type RecallOptions, type RecalledFact } from './recall.js';
import { storeFacts, type StoreOutcome } from './storeFacts.js';
import { chunkTurns, completeTurns, type TranscriptTurn } from './transcript.js';

// The one entry point to long-term facts for a silo (memory_system: long-term): ingest a
// session's new turns, recall, remember a fact directly, and the load_memory tool.

// Transcript characters per extraction call: a long session is distilled in several calls, each
// moving the mark, so an interruption loses at most one call's work.
const EXTRACTION_CHARS = 24_000;

export interface FactMemoryOptions {
  store: Pick<Store, 'facts' | 'readEvents'>;
  embedder: Embedder;
  silo: string;
  /** The extraction model (by default the orchestrator's). */
  model: LanguageModelV3;
  /** memory_extraction_rules. */
  extractionRules?: string;
  /** These three default to the ones measured for the embedder (calibration.ts). */
  dedupThreshold?: number;
  supersedeThreshold?: number;
  restatedThreshold?: number;
  tieMargin?: number;
  /** Whether the extraction model decides restatements just below the threshold: by default when it is a real model, not the scripted one. */
  judgeHardCases?: boolean;
}

export interface IngestReport {
  sessionId: string;
  /** Complete turns read since the last ingestion. */
  turns: number;
  /** The high-water mark after this ingestion. */
  throughSeq: number;
  extracted: number;
  stored: number;
  duplicates: number;
  superseded: number;
  /** Problems that did not stop the ingestion (a failed dedup probe, a fact with an unknown turn). */
  warnings: string[];
}

/** What remember did, and any problem that did not stop it (a failed duplicate check). */
export type RememberResult = StoreOutcome & { warnings: string[] };

export interface FactMemory {
  readonly silo: string;
  /** Distils the session's turns since the last ingestion into facts and moves the mark past them. */
  ingestSession(sessionId: string, signal?: AbortSignal): Promise<IngestReport>;
  recall(query: string, options?: RecallOptions): Promise<RecalledFact[]>;
  /** Stores one fact directly, through the same dedup and supersession as ingestion. */
  remember(input: RememberInput): Promise<RememberResult>;
  loadMemoryTool(): Tool<LoadMemoryInput, string>;
}

export function createFactMemory(options: FactMemoryOptions): FactMemory {
  const { store, embedder, silo, model } = options;
  assertSilo(silo);
  const calibration = calibrationFor(embedder.model);
  const writer = {
    facts: store.facts,
    embedder,
    silo,
    dedupThreshold: options.dedupThreshold ?? calibration.dedup,
    supersedeThreshold: options.supersedeThreshold ?? calibration.supersede,
    restatedThreshold: options.restatedThreshold ?? calibration.restated,
    ...((options.judgeHardCases ?? model.provider !== 'scripted') ? { judge: modelJudge(model) } : {}),
  };
  // Writes run one at a time (session end and SIGINT can both ask to ingest), so two never read
  // the same turns, and a dedup probe always sees the facts written before it.
  let queue: Promise<unknown> = Promise.resolve();
  const serialised = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const ingestChunk = async (sessionId: string, turns: readonly TranscriptTurn[], report: IngestReport, signal?: AbortSignal): Promise<void> => {
    const extraction = await extractFacts({ model, turns, rules: options.extractionRules, signal });
    const turnAt = new Map(turns.map((turn) => [turn.turnId, turn.at]));
    const stored = await storeFacts(
      writer,
      extraction.facts.map((fact) => ({ ...fact, provenance: { sessionId, turnId: fact.turn }, createdAt: turnAt.get(fact.turn) })),
      signal,
    );
    const added = stored.outcomes.filter((outcome) => outcome.kind === 'stored').length;
    report.extracted += extraction.facts.length;
    report.stored += added;
    report.duplicates += stored.outcomes.length - added;
    report.superseded += stored.outcomes.reduce((sum, outcome) => sum + outcome.superseded.length, 0);
    report.warnings.push(...extraction.warnings, ...stored.warnings);
  };

  const ingest = async (sessionId: string, signal?: AbortSignal): Promise<IngestReport> => {
    const mark = await store.facts.ingestedThrough(silo, sessionId);
    const { turns, throughSeq } = completeTurns(await store.readEvents(sessionId, { afterSeq: mark }));
    const report: IngestReport = { sessionId, turns: turns.length, throughSeq: mark, extracted: 0, stored: 0, duplicates: 0, superseded: 0, warnings: [] };
    for (const chunk of chunkTurns(turns, EXTRACTION_CHARS)) {
      await ingestChunk(sessionId, chunk, report, signal);
      report.throughSeq = chunk[chunk.length - 1]!.lastSeq;
      await store.facts.setIngestedThrough(silo, sessionId, report.throughSeq);
    }
    // Complete turns with nothing to read (no input, no answer) still move the mark.
    if (throughSeq !== undefined && throughSeq > report.throughSeq) {
      report.throughSeq = throughSeq;
      await store.facts.setIngestedThrough(silo, sessionId, throughSeq);
    }
    return report;
  };

  const recall = (query: string, recallOptions?: RecallOptions): Promise<RecalledFact[]> => recallFacts({ facts: store.facts, embedder, silo, tieMargin: options.tieMargin ?? calibration.tieMargin }, query, recallOptions);

  return {
    silo,
    ingestSession: (sessionId, signal) => serialised(() => ingest(sessionId, signal)),
    recall,
    async remember(input) {
      const parsed = RememberSchema.safeParse(input);
      if (!parsed.success) {
        throw new Error(`cannot remember this fact: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(fact)'}: ${issue.message}`).join('; ')}`);
      }
      const { said_at, ...fact } = parsed.data;
      const createdAt = said_at === undefined ? undefined : instantStart(said_at);
      return serialised(async () => {
        const { outcomes, warnings } = await storeFacts(writer, [{ ...fact, provenance: null, createdAt }]);
        return { ...outcomes[0]!, warnings };
      });
    },
    loadMemoryTool: () => loadMemoryTool(recall),
  };
}
