import type { WireFamily } from './conformance.js';
import { CALCULATOR_FUNCTION_TOOLS, calculatorToolMessages, SIX_TIMES_SEVEN, VERDICT_SCHEMA } from './turns.js';

// xAI and OpenAI-compatible servers speak the same chat completions wire; this describes it once,
// leaving each family only its endpoint, names and how its server words errors.

export interface ChatCompletionsFamily
  extends Pick<WireFamily, 'title' | 'model' | 'wireModel' | 'provider' | 'start' | 'env' | 'rateLimited' | 'serverError'> {
  /** The content of the assistant message that replays a tool call: the SDKs differ. */
  toolCallContent: string | null;
  toolLoopTitle: string;
  usageTitle: string;
}

export function chatCompletionsFamily(family: ChatCompletionsFamily): WireFamily {
  const { toolCallContent, toolLoopTitle, usageTitle, ...named } = family;
  return {
    ...named,
    plainAnswer: {
      title: 'answers with one POST /v1/chat/completions carrying the key, the system message and the user message',
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer test-key' },
      body: {
        model: family.wireModel,
        messages: [
          { role: 'system', content: 'You are Analyst.' },
          { role: 'user', content: 'Capital of France?' },
        ],
      },
    },
    streamedAnswer: {
      title: 'streams the answer as one text delta per chunk and asks for usage in the stream',
      chunks: ['The capital ', 'of France ', 'is Paris.'],
      request: { body: { stream: true, stream_options: { include_usage: true } } },
    },
    toolLoop: {
      title: toolLoopTitle,
      keepsCallId: true,
      declaredTools: CALCULATOR_FUNCTION_TOOLS,
      continuation: (body) => body.messages.slice(2),
      expectedContinuation: (callId) => calculatorToolMessages(callId, { content: toolCallContent, arguments: JSON.stringify(SIX_TIMES_SEVEN.args) }),
    },
    outputSchema: {
      title: 'asks for the outputSchema as a json_schema response format and returns the parsed answer',
      field: 'response_format',
      expected: { type: 'json_schema', json_schema: { name: 'Analyst', schema: VERDICT_SCHEMA, strict: true } },
    },
    thinking: {
      title: 'surfaces reasoning_content as thinking and keeps it out of the next request (%s)',
      chunkedWhenNotStreamed: false,
      keptOutOfFollowUp: true,
    },
    usage: { title: usageTitle, reportsReasoning: true },
  };
}
