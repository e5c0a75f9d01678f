import { SSE, sseFrame, type AnswerScript, type RecordedRequest, type StreamBody } from './server.js';

// The OpenAI chat completions shape that xAI and OpenAI-compatible servers share: POST
// /v1/chat/completions returns a chat.completion, or with "stream": true a series of
// chat.completion.chunk SSE `data:` lines ending in `data: [DONE]`. Reasoning arrives as
// `reasoning_content`. Where the servers differ is a parameter.

export interface ChatCompletionsDialect {
  /** xAI sends each tool call whole in one chunk; OpenAI-style servers stream the arguments in pieces. */
  wholeToolCalls: boolean;
  /** xAI counts reasoning outside completion_tokens; OpenAI-style servers count it inside. */
  reasoningOutsideCompletion: boolean;
}

type Json = Record<string, unknown>;

function usage(answer: AnswerScript, dialect: ChatCompletionsDialect): Json {
  const figures = answer.usage ?? { input: 10, output: 5 };
  const reasoning = figures.reasoning ?? 0;
  const completion = dialect.reasoningOutsideCompletion ? figures.output - reasoning : figures.output;
  return {
    prompt_tokens: figures.input,
    completion_tokens: completion,
    total_tokens: figures.input + figures.output,
    completion_tokens_details: { reasoning_tokens: reasoning },
  };
}

function finishReason(answer: AnswerScript): string {
  return answer.toolCalls?.length ? 'tool_calls' : 'stop';
}

function envelope(request: RecordedRequest, object: string): Json {
  return { id: 'chatcmpl-fake', object, created: 1_760_000_000, model: String(request.body?.model) };
}

export function chatCompletion(answer: AnswerScript, request: RecordedRequest, dialect: ChatCompletionsDialect): Json {
  const message: Json = { role: 'assistant', content: answer.text ? answer.text.join('') : null };
  if (answer.thinking) message.reasoning_content = answer.thinking.join('');
  if (answer.toolCalls?.length) {
    message.tool_calls = answer.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }));
  }
  return { ...envelope(request, 'chat.completion'), choices: [{ index: 0, message, finish_reason: finishReason(answer) }], usage: usage(answer, dialect) };
}

function toolCallDeltas(answer: AnswerScript, dialect: ChatCompletionsDialect): Json[] {
  return (answer.toolCalls ?? []).flatMap((call, index): Json[] => {
    const args = JSON.stringify(call.args);
    if (dialect.wholeToolCalls) return [{ tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: args } }] }];
    const cut = Math.floor(args.length / 2);
    return [
      { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
      { tool_calls: [{ index, function: { arguments: args.slice(0, cut) } }] },
      { tool_calls: [{ index, function: { arguments: args.slice(cut) } }] },
    ];
  });
}

export function chatCompletionStream(answer: AnswerScript, request: RecordedRequest, dialect: ChatCompletionsDialect): StreamBody {
  const chunk = (choice: Json | undefined, extra: Json = {}): string =>
    sseFrame({ ...envelope(request, 'chat.completion.chunk'), choices: choice ? [{ index: 0, ...choice }] : [], ...extra });
  const deltas: Json[] = [
    { role: 'assistant', content: '' },
    ...(answer.thinking ?? []).map((piece) => ({ reasoning_content: piece })),
    ...(answer.text ?? []).map((piece) => ({ content: piece })),
    ...toolCallDeltas(answer, dialect),
  ];
  const chunks = [
    ...deltas.map((delta) => chunk({ delta, finish_reason: null })),
    chunk({ delta: {}, finish_reason: finishReason(answer) }),
    // Servers send usage in a stream only when asked to.
    ...(request.body?.stream_options?.include_usage === true ? [chunk(undefined, { usage: usage(answer, dialect) })] : []),
    sseFrame('[DONE]'),
  ];
  return { contentType: SSE, chunks };
}
