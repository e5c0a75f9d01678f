import { chatCompletionsFamily } from './chatCompletions.js';
import { describeWireConformance } from './conformance.js';
import { startXaiFake } from './fakes/xai.js';

// grok-* through @ai-sdk/xai, talking HTTP to a loopback fake of xAI's chat completions API.

const MODEL = 'grok-3-mini';

// Everything xAI's wire does shows in the common behaviours of chat completions; nothing here is xAI's alone.
describeWireConformance(
  chatCompletionsFamily({
    title: 'grok-* on the xAI chat completions wire',
    model: MODEL,
    wireModel: MODEL,
    provider: 'xai.chat',
    start: startXaiFake,
    env: (url) => ({ XAI_API_KEY: 'test-key', XAI_BASE_URL: `${url}/v1` }),
    toolCallContent: '',
    toolLoopTitle: 'runs the calculator for a tool_calls entry and sends a tool message back (%s)',
    usageTitle: 'reports prompt, completion and reasoning tokens in the usage event',
    rateLimited: { message: 'Your team has exceeded its requests per second limit.', quoted: 'requests per second limit' },
    serverError: { message: 'The service is currently unavailable.', quoted: 'currently unavailable' },
  }),
);
