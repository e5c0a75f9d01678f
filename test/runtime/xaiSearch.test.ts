import { describe, expect, it } from 'vitest';
import { SyndicateConfigError } from '../../src/config/errors.js';
import { agent, compile } from './fixtures.js';

// xAI's search settings are checked when the syndicate compiles, before any call; on other
// providers the xAI-only tools are inert, and compiling says so.

function refusal(tools: string[], env: Record<string, string>): string[] {
  try {
    compile(agent('Scout', { model: 'grok-4', tools }), { env: { XAI_API_KEY: 'k', ...env } });
  } catch (error) {
    if (error instanceof SyndicateConfigError) return error.issues.map((issue) => issue.message);
    throw error;
  }
  throw new Error('expected a SyndicateConfigError');
}

describe("xAI's search settings", () => {
  it('refuses allowed and excluded handles set together', () => {
    expect(refusal(['x_search'], { XAI_X_SEARCH_ALLOWED_HANDLES: 'a', XAI_X_SEARCH_EXCLUDED_HANDLES: 'b' })).toEqual([
      "agent 'Scout' searches on xAI, but XAI_X_SEARCH_ALLOWED_HANDLES and XAI_X_SEARCH_EXCLUDED_HANDLES are both set, and xAI takes only one of them — unset one",
    ]);
  });

  it('refuses more handles than xAI takes', () => {
    const handles = Array.from({ length: 11 }, (_, i) => `h${i}`).join(',');

    expect(refusal(['x_search'], { XAI_X_SEARCH_EXCLUDED_HANDLES: handles })[0]).toContain('XAI_X_SEARCH_EXCLUDED_HANDLES lists 11 handles, and xAI takes at most 10');
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(refusal(['x_search'], { XAI_X_SEARCH_FROM_DATE: '2026-02-30' })[0]).toContain("XAI_X_SEARCH_FROM_DATE is '2026-02-30', which is not a date — write it as YYYY-MM-DD");
  });

  it('refuses a from date after the to date', () => {
    expect(refusal(['x_search'], { XAI_X_SEARCH_FROM_DATE: '2026-03-01', XAI_X_SEARCH_TO_DATE: '2026-02-01' })[0]).toContain('is after XAI_X_SEARCH_TO_DATE');
  });

  it('refuses allowed and excluded domains together, and more than five', () => {
    const messages = refusal(['web_search'], { XAI_WEB_SEARCH_ALLOWED_DOMAINS: 'a.com,b.com,c.com,d.com,e.com,f.com', XAI_WEB_SEARCH_EXCLUDED_DOMAINS: 'x.com' });

    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('are both set');
    expect(messages[1]).toContain('XAI_WEB_SEARCH_ALLOWED_DOMAINS lists 6 domains, and xAI takes at most 5');
  });

  it('refuses collections_search without XAI_COLLECTION_IDS', () => {
    expect(refusal(['collections_search'], {})).toEqual([
      "agent 'Scout' lists collections_search, but XAI_COLLECTION_IDS is not set — set it to the ids of the xAI Collections to search, separated by commas",
    ]);
  });

  it('refuses a maximum number of results that is not a whole number above 0', () => {
    expect(refusal(['collections_search'], { XAI_COLLECTION_IDS: 'c', XAI_COLLECTIONS_MAX_RESULTS: 'ten' })[0]).toContain("XAI_COLLECTIONS_MAX_RESULTS is 'ten'");
  });

  it('ignores the variables on a grok agent that lists no search', () => {
    expect(() => compile(agent('Scout', { model: 'grok-4' }), { env: { XAI_X_SEARCH_FROM_DATE: 'soon' } })).not.toThrow();
  });
});

describe('x_search and collections_search on other providers', () => {
  it('compile with one warning each, naming the agent and its model', () => {
    const { warnings, root } = compile(agent('Scout', { model: 'claude-sonnet-4-5', tools: ['x_search', 'collections_search'] }));

    expect(warnings).toEqual([
      "Agent 'Scout': x_search has no effect on claude-sonnet-4-5: it is xAI's own search, on grok-* models only — remove it or use a grok model",
      "Agent 'Scout': collections_search has no effect on claude-sonnet-4-5: it is xAI's own search, on grok-* models only — remove it or use a grok model",
    ]);
    expect(root.toolSpecs).toEqual([]);
  });

  it('compile quietly on the scripted model, which stands in for any model', () => {
    expect(compile(agent('Scout', { tools: ['x_search'] })).warnings).toEqual([]);
  });
});
