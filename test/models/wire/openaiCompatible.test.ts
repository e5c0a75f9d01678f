import { chatCompletionsFamily } from './chatCompletions.js';
import { describeWireConformance } from './conformance.js';
import { startOpenAICompatibleFake } from './fakes/openaiCompatible.js';

// openai-compatible:<name>/<model> through @ai-sdk/openai-compatible, talking HTTP to a loopback
// fake of an OpenAI-compatible chat completions server (vLLM, llama.cpp, LM Studio, OpenRouter).

// Everything such a server does shows in the common behaviours of chat completions; nothing here is its alone.
describeWireConformance(
  chatCompletionsFamily({
    title: 'openai-compatible:* on the chat completions wire',
    model: 'openai-compatible:localbox/qwen3-8b',
    wireModel: 'qwen3-8b',
    provider: 'localbox.chat',
    start: startOpenAICompatibleFake,
    env: (url) => ({ OPENAI_COMPATIBLE_LOCALBOX_BASE_URL: `${url}/v1`, OPENAI_COMPATIBLE_LOCALBOX_API_KEY: 'test-key' }),
    toolCallContent: null,
    toolLoopTitle: 'runs the calculator for streamed tool_calls and sends a tool message back (%s)',
    usageTitle: 'reports prompt, completion and reasoning tokens in the usage event of a streamed answer',
    rateLimited: { message: 'Too many requests, slow down.', quoted: 'Too many requests' },
    serverError: { message: 'CUDA out of memory.', quoted: 'CUDA out of memory.' },
  }),
);
