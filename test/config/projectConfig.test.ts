import { afterEach, describe, expect, it } from 'vitest';
import { formatIssue, SyndicateConfigError } from '../../src/config/errors.js';
import { loadProjectConfig, parseProjectConfig } from '../../src/config/projectConfig.js';
import { removeFixtures, writeFixture } from './fixtures.js';

const FILE = 'syndicate.config.yaml';

/** The formatted issues parsing `lines` reports; fails the test if they parse. */
function refusals(lines: string[]): string[] {
  try {
    parseProjectConfig(lines.join('\n'), FILE);
  } catch (error) {
    if (error instanceof SyndicateConfigError) return error.issues.map(formatIssue);
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('the project config file', () => {
  afterEach(removeFixtures);

  it('gives the providers by server name', () => {
    const lines = ['providers:', '  openrouter:', '    base_url: https://openrouter.ai/api/v1', '    api_key_env: OPENROUTER_API_KEY', '    headers:', '      X-Title: Syndicate'];

    expect(parseProjectConfig(lines.join('\n'), FILE)).toEqual({
      openrouter: { base_url: 'https://openrouter.ai/api/v1', api_key_env: 'OPENROUTER_API_KEY', headers: { 'X-Title': 'Syndicate' } },
    });
  });

  it('refuses api_key at its line and column, pointing to api_key_env', () => {
    const [issue, ...others] = refusals(['providers:', '  openrouter:', '    base_url: https://openrouter.ai/api/v1', '    api_key: sk-or-123']);

    expect(others).toEqual([]);
    expect(issue).toMatch(/^syndicate\.config\.yaml:4:5 providers\.openrouter\.api_key: a key must not be written in a file that may be committed/);
    expect(issue).toContain('api_key_env: OPENROUTER_API_KEY');
  });

  it('refuses unknown keys at their line and column', () => {
    expect(refusals(['providers:', '  vllm:', '    base_url: http://localhost:8000/v1', '    header:', '      X-Title: x'])).toEqual([
      "syndicate.config.yaml:4:5 providers.vllm.header: unknown key 'header' — did you mean 'headers'?",
    ]);
  });

  it('refuses a base URL that is not http or https', () => {
    expect(refusals(['providers:', '  vllm:', '    base_url: ftp://localhost/v1'])).toEqual([
      'syndicate.config.yaml:3:15 providers.vllm.base_url: must be an http:// or https:// URL, e.g. http://localhost:1234/v1',
    ]);
  });

  it('is read from syndicate.config.json in the directory', () => {
    const dir = writeFixture({ 'syndicate.config.json': '{"providers": {"lmstudio": {"base_url": "http://localhost:1234/v1"}}}' });

    expect(loadProjectConfig(dir)).toEqual({ file: 'syndicate.config.json', providers: { lmstudio: { base_url: 'http://localhost:1234/v1' } } });
  });

  it('is optional', () => {
    expect(loadProjectConfig(writeFixture({}))).toEqual({ file: undefined, providers: {} });
  });

  it('is refused when the directory holds two of them', () => {
    const dir = writeFixture({ 'syndicate.config.yaml': '', 'syndicate.config.json': '{}' });

    expect(() => loadProjectConfig(dir)).toThrow('syndicate.config.yaml: also found syndicate.config.json: keep one project config file');
  });
});
