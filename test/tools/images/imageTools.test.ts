import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SyndicateConfigError } from '../../../src/config/errors.js';
import { INVENTORY_PROMPT } from '../../../src/tools/images/inspectImage.js';
import type { AnyTool, ToolContext } from '../../../src/core/tool.js';
import { agent, compile } from '../../runtime/fixtures.js';
import { startImagesFake } from '../../models/wire/fakes/images.js';
import { startOpenAIFake } from '../../models/wire/fakes/openai.js';
import type { FakeProvider } from '../../models/wire/fakes/server.js';

// generate_image and inspect_image, compiled onto an agent and called as the runtime calls
// them, against loopback fakes of the provider's HTTP API.

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const CTX: ToolContext = { agent: 'Painter', turnId: 't1', sessionId: undefined, signal: new AbortController().signal };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function tempFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'syndicate-images-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function fake(start: () => Promise<FakeProvider>): Promise<FakeProvider> {
  const provider = await start();
  cleanups.push(() => provider.close());
  return provider;
}

function toolOf(model: string, name: string, outputsFolder: string, env: Record<string, string> = {}): AnyTool {
  const tool = compile(agent('Painter', { model, tools: [name] }), { outputsFolder, env }).root.tools.get(name);
  if (!tool) throw new Error(`${name} was not compiled onto the agent`);
  return tool;
}

describe('generate_image', () => {
  it("saves the provider's base64 image under the outputs folder and returns its path", async () => {
    const images = (await fake(startImagesFake)).answer({ text: [PNG.toString('base64')] });
    const outputs = path.join(tempFolder(), 'outputs');
    const tool = toolOf('gpt-5-mini', 'generate_image', outputs, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${images.url}/v1` });

    const result = (await tool.execute({ prompt: 'a lighthouse at dusk', size: '1024x1024' }, CTX)) as { path: string };

    expect(images.requests[0]).toMatchObject({ path: '/v1/images/generations', body: { model: 'gpt-image-1', prompt: 'a lighthouse at dusk', size: '1024x1024', n: 1 } });
    expect(path.dirname(result.path)).toBe(outputs);
    expect(readFileSync(result.path)).toEqual(PNG);
  });

  it('is refused at compile time on a provider without an image model', () => {
    expect(() => compile(agent('Painter', { model: 'claude-sonnet-4-5', tools: ['generate_image'] }))).toThrow(SyndicateConfigError);
  });

  it('fails the call on the scripted model, saying it draws no images', async () => {
    const tool = toolOf('scripted', 'generate_image', tempFolder());

    await expect(tool.execute({ prompt: 'a lighthouse' }, CTX)).rejects.toThrow('scripted model, which draws no images');
  });
});

describe('inspect_image', () => {
  it("sends the image with the fixed inventory prompt to the agent's model and returns its text", async () => {
    const model = (await fake(startOpenAIFake)).answer({ text: ['Subjects: 1 lighthouse.'] });
    const outputs = tempFolder();
    writeFileSync(path.join(outputs, 'lighthouse.png'), PNG);
    const tool = toolOf('gpt-5-mini', 'inspect_image', outputs, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${model.url}/v1` });

    const inventory = await tool.execute({ path: 'lighthouse.png' }, CTX);

    expect(inventory).toBe('Subjects: 1 lighthouse.');
    expect(model.requests[0]?.body.input).toEqual([
      { role: 'developer', content: INVENTORY_PROMPT },
      { role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${PNG.toString('base64')}` }] },
    ]);
  });

  it('takes the path as its only argument', () => {
    const tool = toolOf('scripted', 'inspect_image', tempFolder());

    expect(tool.inputSchema.safeParse({ path: 'a.png', expect: 'a lighthouse' }).success).toBe(false);
  });

  it('refuses a path that leaves the outputs folder', async () => {
    const root = tempFolder();
    writeFileSync(path.join(root, 'secret.png'), PNG);
    const outputs = path.join(root, 'outputs');
    const tool = toolOf('scripted', 'inspect_image', outputs);

    await expect(tool.execute({ path: '../secret.png' }, CTX)).rejects.toThrow('only images under the outputs folder can be inspected');
  });

  it('refuses a symbolic link inside the outputs folder that points outside it', async () => {
    const root = tempFolder();
    writeFileSync(path.join(root, 'secret.png'), PNG);
    const outputs = path.join(root, 'outputs');
    mkdirSync(outputs);
    symlinkSync(path.join(root, 'secret.png'), path.join(outputs, 'link.png'));
    const tool = toolOf('scripted', 'inspect_image', outputs);

    await expect(tool.execute({ path: 'link.png' }, CTX)).rejects.toThrow('only images under the outputs folder can be inspected');
  });
});
