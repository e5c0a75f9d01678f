import type { JSONSchema7, LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { z } from 'zod';
import { parseJsonReply } from '../../models/jsonReply.js';
import { ExtractionSchema, type ExtractedFact } from './fact.js';
import { extractionPrompt } from './extractionPrompt.js';
import { renderTranscript, type TranscriptTurn } from './transcript.js';

// One extraction call: the turns in, facts out, through the provider interface with a JSON
// response format (the scripted model answers it from its script, offline).

export interface ExtractionRequest {
  model: LanguageModelV3;
  turns: readonly TranscriptTurn[];
  /** memory_extraction_rules. */
  rules?: string;
  signal?: AbortSignal;
}

export interface Extraction {
  facts: ExtractedFact[];
  /** Facts the model attributed to a turn it was not given, dropped. */
  warnings: string[];
}

const RESPONSE_FORMAT: LanguageModelV3CallOptions['responseFormat'] = {
  type: 'json',
  name: 'memory_facts',
  description: 'Facts distilled from the conversation.',
  schema: z.toJSONSchema(ExtractionSchema) as JSONSchema7,
};

export async function extractFacts(request: ExtractionRequest): Promise<Extraction> {
  const { model } = request;
  const result = await model.doGenerate({
    prompt: [
      { role: 'system', content: extractionPrompt(request.rules) },
      { role: 'user', content: [{ type: 'text', text: renderTranscript(request.turns) }] },
    ],
    responseFormat: RESPONSE_FORMAT,
    temperature: 0,
    abortSignal: request.signal,
  });
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('').trim();
  const who = `fact extraction with ${model.provider}/${model.modelId}`;
  const json = parseJsonReply(text);
  if (!json.ok) throw new Error(`${who} did not answer JSON: ${json.problem}; the turns stay queued for the next ingestion`);
  const parsed = ExtractionSchema.safeParse(json.value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`${who} answered JSON that does not match the fact schema (${problems}); the turns stay queued for the next ingestion`);
  }
  const known = new Set(request.turns.map((turn) => turn.turnId));
  // Given a single turn, every fact comes from it, whatever id the model wrote.
  const only = request.turns.length === 1 ? request.turns[0]!.turnId : undefined;
  const warnings: string[] = [];
  const facts = parsed.data.facts.flatMap((fact) => {
    if (known.has(fact.turn)) return [fact];
    if (only !== undefined) return [{ ...fact, turn: only }];
    warnings.push(`${who} attributed "${fact.text}" to turn '${fact.turn}', which it was not given: the fact was dropped`);
    return [];
  });
  return { facts, warnings };
}
