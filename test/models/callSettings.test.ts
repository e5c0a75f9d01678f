import { describe, expect, it } from 'vitest';
import type { GenerateContentConfig } from '../../src/config/schema.js';
import { callSettingsFor, type CallSettings } from '../../src/models/callSettings.js';
import type { ProviderFamily } from '../../src/config/modelIds.js';

const REAL_FAMILIES = ['google', 'anthropic', 'openai', 'xai', 'ollama', 'openai-compatible'] as const;

describe('callSettingsFor', () => {
  it.each<[ProviderFamily, GenerateContentConfig, CallSettings]>([
    [
      'google',
      { temperature: 0.4, topP: 0.9, topK: 40, maxOutputTokens: 800, stopSequences: ['END'], seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2 },
      { temperature: 0.4, topP: 0.9, topK: 40, maxOutputTokens: 800, stopSequences: ['END'], seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2 },
    ],
    ['google', { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } }, { providerOptions: { google: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } } } }],
    ['google', { thinkingConfig: { thinkingLevel: 'low' } }, { providerOptions: { google: { thinkingConfig: { thinkingLevel: 'low' } } } }],
    [
      'google',
      { safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }] },
      { providerOptions: { google: { safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }] } } },
    ],
    ['anthropic', { temperature: 0.3, topK: 20, maxOutputTokens: 500, stopSequences: ['END'] }, { temperature: 0.3, topK: 20, maxOutputTokens: 500, stopSequences: ['END'] }],
    ['anthropic', { thinkingConfig: { thinkingBudget: 2048 } }, { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } }],
    ['anthropic', { thinkingConfig: { thinkingBudget: 0 } }, { providerOptions: { anthropic: { thinking: { type: 'disabled' } } } }],
    ['anthropic', { thinkingConfig: { thinkingLevel: 'high' } }, { providerOptions: { anthropic: { thinking: { type: 'adaptive' }, effort: 'high' } } }],
    ['anthropic', { thinkingConfig: { thinkingLevel: 'medium', includeThoughts: false } }, { providerOptions: { anthropic: { thinking: { type: 'adaptive', display: 'omitted' }, effort: 'medium' } } }],
    ['openai', { temperature: 0.2, topP: 0.5, maxOutputTokens: 300 }, { temperature: 0.2, topP: 0.5, maxOutputTokens: 300 }],
    ['openai', { thinkingConfig: { thinkingLevel: 'minimal', includeThoughts: true } }, { providerOptions: { openai: { reasoningEffort: 'minimal', reasoningSummary: 'auto' } } }],
    ['xai', { temperature: 0.7, seed: 3, thinkingConfig: { thinkingLevel: 'high' } }, { temperature: 0.7, seed: 3, providerOptions: { xai: { reasoningEffort: 'high' } } }],
    [
      'ollama',
      { temperature: 0.6, topP: 0.8, topK: 30, maxOutputTokens: 256, stopSequences: ['###'], seed: 11, thinkingConfig: { includeThoughts: true } },
      { providerOptions: { ollama: { options: { temperature: 0.6, top_p: 0.8, top_k: 30, num_predict: 256, stop: ['###'], seed: 11 }, think: true } } },
    ],
    ['ollama', { thinkingConfig: { thinkingBudget: 0 } }, { providerOptions: { ollama: { think: false } } }],
    [
      'openai-compatible',
      { seed: 5, stopSequences: ['END'], presencePenalty: 0.3, frequencyPenalty: 0.4, thinkingConfig: { thinkingLevel: 'low' } },
      { seed: 5, stopSequences: ['END'], presencePenalty: 0.3, frequencyPenalty: 0.4, providerOptions: { openaiCompatible: { reasoningEffort: 'low' } } },
    ],
  ])('maps onto %s options as %j', (family, config, settings) => {
    expect(callSettingsFor(family, config)).toEqual({ settings, warnings: [] });
  });

  it.each<[ProviderFamily, GenerateContentConfig, string]>([
    ['openai', { topK: 40 }, 'topK is not supported by OpenAI models and will be ignored — remove it or use a Gemini, Claude, Ollama'],
    ['openai', { seed: 1 }, 'seed is not supported by OpenAI models and will be ignored — remove it or use a Gemini, xAI, Ollama, OpenAI-compatible'],
    ['openai', { stopSequences: ['x'] }, 'stopSequences is not supported by OpenAI models and will be ignored'],
    ['openai', { thinkingConfig: { thinkingBudget: 2048 } }, 'thinkingBudget is not supported by OpenAI models and will be ignored — use thinkingLevel (minimal, low, medium or high) instead'],
    ['anthropic', { seed: 1 }, 'seed is not supported by Claude models and will be ignored'],
    ['anthropic', { presencePenalty: 0.5 }, 'presencePenalty is not supported by Claude models and will be ignored — remove it or use a Gemini, OpenAI-compatible'],
    ['anthropic', { safetySettings: [] }, 'safetySettings is not supported by Claude models and will be ignored — remove it or use a Gemini model'],
    ['anthropic', { responseMimeType: 'application/json' }, 'responseMimeType application/json without an outputSchema is not supported by Claude models and will be ignored — add an outputSchema'],
    ['anthropic', { temperature: 0.5, thinkingConfig: { thinkingBudget: 4096 } }, 'temperature cannot be combined with thinking on Claude models and will be ignored — remove it or turn thinking off'],
    ['anthropic', { temperature: 0.5, topP: 0.9 }, 'topP cannot be combined with temperature on Claude models and will be ignored — set only one of them'],
    ['anthropic', { temperature: 1.5 }, "temperature 1.5 is above Claude's maximum; 1 is used instead"],
    ['anthropic', { thinkingConfig: { thinkingBudget: 500 } }, "thinkingBudget 500 is below Claude's minimum; 1024 is used instead"],
    ['anthropic', { thinkingConfig: { includeThoughts: true } }, 'includeThoughts does not turn thinking on for Claude models — set thinkingBudget (1024 or more) or thinkingLevel as well'],
    ['xai', { topK: 10 }, 'topK is not supported by xAI models and will be ignored'],
    ['xai', { thinkingConfig: { thinkingLevel: 'minimal' } }, "thinkingLevel 'minimal' is not supported by xAI models; 'low' is used instead"],
    ['xai', { thinkingConfig: { includeThoughts: true } }, 'includeThoughts is not supported by xAI models and will be ignored'],
    ['ollama', { frequencyPenalty: 0.2 }, 'frequencyPenalty is not supported by Ollama models and will be ignored'],
    ['ollama', { thinkingConfig: { thinkingLevel: 'high' } }, 'thinkingLevel is not supported by Ollama models: thinking is simply turned on, without a limit — replace it with includeThoughts: true'],
    ['openai-compatible', { topK: 10 }, 'topK is not supported by OpenAI-compatible models and will be ignored'],
    ['openai-compatible', { thinkingConfig: { thinkingBudget: 100 } }, 'thinkingBudget is not supported by OpenAI-compatible models and will be ignored'],
    ['google', { candidateCount: 2 }, 'candidateCount is not supported and will be ignored: every call returns one reply — remove it'],
    ['google', { responseMimeType: 'text/x.enum' }, "responseMimeType 'text/x.enum' is not supported and will be ignored — use application/json for JSON mode, or remove it"],
  ])('warns once when %s cannot honour %j', (family, config, warning) => {
    const { warnings } = callSettingsFor(family, config);

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(warning);
  });

  it('leaves a setting the provider cannot honour out of the call', () => {
    expect(callSettingsFor('openai', { topK: 40, seed: 1, temperature: 0.5 }).settings).toEqual({ temperature: 0.5 });
  });

  it('leaves temperature, topP and topK out of a Claude call that thinks', () => {
    const { settings } = callSettingsFor('anthropic', { temperature: 0.5, topP: 0.9, topK: 5, thinkingConfig: { thinkingBudget: 2048 } });

    expect(settings).toEqual({ providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } } });
  });

  it('accepts JSON mode on Claude when the agent has an outputSchema', () => {
    expect(callSettingsFor('anthropic', { responseMimeType: 'application/json' }, { hasOutputSchema: true }).warnings).toEqual([]);
  });

  it('accepts JSON mode and a single candidate on every provider', () => {
    for (const family of REAL_FAMILIES.filter((f) => f !== 'anthropic')) {
      expect(callSettingsFor(family, { responseMimeType: 'application/json', candidateCount: 1 }).warnings).toEqual([]);
    }
  });

  it('maps an empty config to no settings and no warnings on every provider', () => {
    for (const family of REAL_FAMILIES) expect(callSettingsFor(family, {})).toEqual({ settings: {}, warnings: [] });
  });

  it('passes everything to the scripted model as written, without warnings', () => {
    const config: GenerateContentConfig = { topK: 3, seed: 1, candidateCount: 4, safetySettings: [], thinkingConfig: { thinkingBudget: 9 } };

    expect(callSettingsFor('scripted', config)).toEqual({ settings: { topK: 3, seed: 1 }, warnings: [] });
  });
});
