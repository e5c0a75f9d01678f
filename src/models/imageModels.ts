import type { ImageModelV3 } from '@ai-sdk/provider';
import { ModelConfigError } from './errors.js';
import { parseModelId, type CloudFamily } from '../config/modelIds.js';
import { CLOUD } from './providers.js';

// generate_image calls the image model of the provider the agent already runs on, with the same
// key and base URL: one provider to configure. SYNDICATE_IMAGE_MODEL picks another of its models.

export const IMAGE_MODEL_VAR = 'SYNDICATE_IMAGE_MODEL';

type ImageFamily = Extract<CloudFamily, 'openai' | 'xai' | 'google'>;

const DEFAULT_IMAGE_MODELS: Readonly<Record<ImageFamily, string>> = {
  openai: 'gpt-image-1',
  xai: 'grok-2-image',
  google: 'imagen-4.0-generate-001',
};

const LOADERS: Readonly<Record<ImageFamily, (apiKey: string, model: string, baseURL: string) => Promise<ImageModelV3>>> = {
  openai: async (apiKey, model, baseURL) => (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL }).image(model),
  xai: async (apiKey, model, baseURL) => (await import('@ai-sdk/xai')).createXai({ apiKey, baseURL }).image(model),
  google: async (apiKey, model, baseURL) => (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL }).image(model),
};

export const IMAGE_MODELS = 'OpenAI (gpt-*, o-series), xAI (grok-*) and Gemini (gemini-*) models';

function imageFamily(modelId: string): ImageFamily | 'scripted' | undefined {
  const family = parseModelId(modelId)?.family;
  if (family === 'scripted') return 'scripted';
  return family === 'openai' || family === 'xai' || family === 'google' ? family : undefined;
}

/** Why an agent on `modelId` cannot have generate_image, as the end of a sentence starting with its name; undefined when it can. */
export function imageModelProblem(modelId: string): string | undefined {
  if (imageFamily(modelId) !== undefined || parseModelId(modelId) === undefined) return undefined;
  return `lists generate_image, but its model ${modelId} has no image model here — generate_image works with ${IMAGE_MODELS}: give this agent one of those, or remove generate_image`;
}

/** The image model for an agent on `modelId`; rejects with what to set when it has no key, or runs offline. */
export async function loadImageModel(modelId: string, agent: string, env: NodeJS.ProcessEnv): Promise<ImageModelV3> {
  const family = imageFamily(modelId);
  if (family === 'scripted') throw new ModelConfigError(`${agent} runs on the scripted model, which draws no images — run it on an OpenAI, xAI or Gemini model to generate images`);
  if (family === undefined) throw new ModelConfigError(`${agent} runs on ${modelId}, which has no image model here`);
  const provider = CLOUD[family];
  const apiKey = provider.keys.map((name) => env[name]).find((value) => value);
  if (!apiKey) throw new ModelConfigError(`generate_image needs ${provider.keys.join(' or ')}: set it in the environment or a .env file`);
  const model = env[IMAGE_MODEL_VAR] || DEFAULT_IMAGE_MODELS[family];
  return LOADERS[family](apiKey, model, env[provider.baseUrlVar] || provider.defaultBaseUrl);
}
