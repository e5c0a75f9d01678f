import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { modelsCommand } from '../../src/cli/modelsCommand.js';
import { startOpenAIFake } from '../models/wire/fakes/openai.js';
import type { FakeProvider } from '../models/wire/fakes/server.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function models(ping: boolean, env: NodeJS.ProcessEnv): Promise<{ code: number; lines: string[] }> {
  let out = '';
  const code = await modelsCommand({ ping }, { NO_COLOR: '1', ...env }, (text) => (out += text));
  return { code, lines: out.trimEnd().split('\n') };
}

describe('syndicate models', () => {
  it('lists every provider family and what to set for the ones not configured', async () => {
    const { code, lines } = await models(false, {});

    expect(code).toBe(0);
    expect(lines.map((line) => line.split(/\s{2,}/)[0])).toEqual(['Gemini', 'Claude', 'OpenAI', 'xAI', 'Ollama', 'scripted (built in)']);
    expect(lines[1]).toMatch(/claude-\*\s+not configured: set ANTHROPIC_API_KEY$/);
    expect(lines[4]).toMatch(/ollama\/<model>\s+default server http:\/\/localhost:11434$/);
  });

  it('lists an openai-compatible server named by its variables', async () => {
    const { lines } = await models(false, { OPENAI_COMPATIBLE_LM_STUDIO_BASE_URL: 'http://127.0.0.1:1234/v1' });

    expect(lines).toContainEqual(expect.stringMatching(/^OpenAI-compatible 'lm-studio'\s+openai-compatible:lm-studio\/<model>\s+server http:\/\/127.0.0.1:1234\/v1$/));
  });

  it('with --ping, calls each configured provider once and prints its tokens and latency, skipping the rest', async () => {
    fake = (await startOpenAIFake()).answer({ text: ['OK'], usage: { input: 12, output: 3 } });

    const { lines } = await models(true, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${fake.url}/v1`, OLLAMA_BASE_URL: await closedPortUrl() });

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body).toMatchObject({ model: 'gpt-5-nano', max_output_tokens: 16 });
    expect(lines.find((line) => line.startsWith('OpenAI'))).toMatch(/· ping ok: gpt-5-nano, 12 in \/ 3 out tokens, \d+ ms$/);
    expect(lines.find((line) => line.startsWith('Claude'))).toMatch(/· ping skipped$/);
    expect(lines.find((line) => line.startsWith('scripted'))).toMatch(/· ping ok: scripted, \d+ in \/ \d+ out tokens, \d+ ms$/);
  });

  it('with --ping, reports a configured server that does not answer and exits 1', async () => {
    const { code, lines } = await models(true, { OLLAMA_BASE_URL: await closedPortUrl() });

    expect(code).toBe(1);
    expect(lines.find((line) => line.startsWith('Ollama'))).toMatch(/· ping failed: no Ollama server answers at http:\/\/127.0.0.1:\d+: start it \(ollama serve\) or set OLLAMA_BASE_URL$/);
  });
});
