import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, streamText } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { lazyModel } from '../../src/models/lazyModel.js';
import { createScriptedModel } from '../../src/models/scripted/createScriptedModel.js';
import { readStream, textOf, userPrompt } from './helpers.js';

const IDENTITY = { provider: 'test.chat', modelId: 'm-1' };

function scripted(): LanguageModelV3 {
  return createScriptedModel({ agentName: 'Lazy', subagents: [] });
}

/** A loader that counts its calls and resolves only when released. */
function gatedLoader(build: () => LanguageModelV3 = scripted) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const load = vi.fn(async () => {
    await gate;
    return build();
  });
  return { load, release };
}

describe('lazyModel', () => {
  it('knows its identity without loading', () => {
    const load = vi.fn(async () => scripted());
    const model = lazyModel(IDENTITY, load);
    expect(model.specificationVersion).toBe('v3');
    expect(model.provider).toBe('test.chat');
    expect(model.modelId).toBe('m-1');
    expect(load).not.toHaveBeenCalled();
  });

  it('loads once for concurrent first calls of both kinds and for supportedUrls', async () => {
    const { load, release } = gatedLoader();
    const model = lazyModel(IDENTITY, load);
    const generated = [model.doGenerate({ prompt: userPrompt('one') }), model.doGenerate({ prompt: userPrompt('two') })];
    const streamed = readStream(model, { prompt: userPrompt('three') });
    const urls = model.supportedUrls;
    release();
    const [first, second] = await Promise.all(generated);
    expect(textOf(first!.content)).toContain('On "one"');
    expect(textOf(second!.content)).toContain('On "two"');
    expect((await streamed).some((part) => part.type === 'text-delta' && part.delta.includes('three'))).toBe(true);
    expect(await urls).toEqual({});
    await model.doGenerate({ prompt: userPrompt('four') });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps one loaded model per instance', async () => {
    const load = vi.fn(async () => scripted());
    await lazyModel(IDENTITY, load).doGenerate({ prompt: userPrompt('a') });
    await lazyModel(IDENTITY, load).doGenerate({ prompt: userPrompt('b') });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('passes the loaded model’s supportedUrls through, even when they are a promise', async () => {
    const urls = { 'image/*': [/^https:/] };
    const model = lazyModel(IDENTITY, async () => ({ ...scripted(), supportedUrls: Promise.resolve(urls) }));
    expect(await model.supportedUrls).toBe(urls);
  });

  it('fails every waiting call when the load fails, then tries again on the next call', async () => {
    let attempts = 0;
    const model = lazyModel(IDENTITY, async () => {
      if (++attempts === 1) throw new Error('cannot import');
      return scripted();
    });
    const calls = [model.doGenerate({ prompt: userPrompt('x') }), model.doStream({ prompt: userPrompt('x') })];
    await expect(calls[0]).rejects.toThrow('cannot import');
    await expect(calls[1]).rejects.toThrow('cannot import');
    await expect(model.doGenerate({ prompt: userPrompt('y') })).resolves.toBeDefined();
    expect(attempts).toBe(2);
  });

  it('turns a loader that throws synchronously into a failed call', async () => {
    const model = lazyModel(IDENTITY, () => {
      throw new Error('sync failure');
    });
    await expect(model.doGenerate({ prompt: userPrompt('x') })).rejects.toThrow('sync failure');
  });

  it('leaves an unread supportedUrls failure handled', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const model = lazyModel(IDENTITY, async () => Promise.reject(new Error('cannot import')));
      void model.supportedUrls;
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('runs under the AI SDK', async () => {
    const generated = await generateText({ model: lazyModel(IDENTITY, async () => scripted()), prompt: 'Plan the launch' });
    expect(generated.text).toContain('[Lazy] On "Plan the launch"');
    const streamed = streamText({ model: lazyModel(IDENTITY, async () => scripted()), prompt: 'Plan the launch' });
    expect(await streamed.text).toBe(generated.text);
  });
});
