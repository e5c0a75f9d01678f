import { SSE, sseFrame, startFake, type AnswerScript, type FakeProvider, type RecordedRequest, type WireFormat } from './server.js';

// OpenAI Responses API: POST /v1/responses returns a response object whose `output` lists
// reasoning, message and function_call items; with "stream": true it is a series of typed SSE
// events (response.created, response.output_item.added, response.output_text.delta,
// response.reasoning_summary_text.delta, response.function_call_arguments.delta,
// response.output_item.done, response.completed).

const REASONING_ID = 'rs_fake';
const MESSAGE_ID = 'msg_fake';

type Item = Record<string, unknown>;

function reasoningItem(answer: AnswerScript): Item {
  return { type: 'reasoning', id: REASONING_ID, summary: [{ type: 'summary_text', text: (answer.thinking ?? []).join('') }] };
}

function messageItem(answer: AnswerScript): Item {
  return {
    type: 'message',
    id: MESSAGE_ID,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: (answer.text ?? []).join(''), annotations: [] }],
  };
}

function callItems(answer: AnswerScript): Item[] {
  return (answer.toolCalls ?? []).map((call, index) => ({
    type: 'function_call',
    id: `fc_fake_${index}`,
    call_id: call.id,
    name: call.name,
    arguments: JSON.stringify(call.args),
    status: 'completed',
  }));
}

function usage(answer: AnswerScript): Record<string, unknown> {
  const figures = answer.usage ?? { input: 10, output: 5 };
  return {
    input_tokens: figures.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: figures.output,
    output_tokens_details: { reasoning_tokens: figures.reasoning ?? 0 },
    total_tokens: figures.input + figures.output,
  };
}

function responseObject(answer: AnswerScript, request: RecordedRequest, status: string, output: Item[]): Record<string, unknown> {
  return {
    id: 'resp_fake',
    object: 'response',
    created_at: 1_760_000_000,
    status,
    model: String(request.body?.model),
    output,
    incomplete_details: null,
    ...(status === 'completed' ? { usage: usage(answer) } : {}),
  };
}

function outputItems(answer: AnswerScript): Item[] {
  return [...(answer.thinking ? [reasoningItem(answer)] : []), ...(answer.text ? [messageItem(answer)] : []), ...callItems(answer)];
}

/** The events of one output item, between its output_item.added and output_item.done. */
function itemEvents(answer: AnswerScript, item: Item, outputIndex: number): Item[] {
  const id = String(item.id);
  if (item.type === 'reasoning') {
    const part = { type: 'summary_text', text: '' };
    return [
      { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, summary: [] } },
      { type: 'response.reasoning_summary_part.added', item_id: id, output_index: outputIndex, summary_index: 0, part },
      ...(answer.thinking ?? []).map((delta) => ({ type: 'response.reasoning_summary_text.delta', item_id: id, output_index: outputIndex, summary_index: 0, delta })),
      { type: 'response.reasoning_summary_part.done', item_id: id, output_index: outputIndex, summary_index: 0, part: { ...part, text: (answer.thinking ?? []).join('') } },
      { type: 'response.output_item.done', output_index: outputIndex, item },
    ];
  }
  if (item.type === 'message') {
    const text = (answer.text ?? []).join('');
    const part = { type: 'output_text', text: '', annotations: [] };
    const at = { item_id: id, output_index: outputIndex, content_index: 0 };
    return [
      { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...at, part },
      ...(answer.text ?? []).map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
      { type: 'response.output_text.done', ...at, text, logprobs: [] },
      { type: 'response.content_part.done', ...at, part: { ...part, text } },
      { type: 'response.output_item.done', output_index: outputIndex, item },
    ];
  }
  const args = String(item.arguments);
  const cut = Math.floor(args.length / 2);
  const at = { item_id: id, output_index: outputIndex };
  return [
    { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, arguments: '', status: 'in_progress' } },
    { type: 'response.function_call_arguments.delta', ...at, delta: args.slice(0, cut) },
    { type: 'response.function_call_arguments.delta', ...at, delta: args.slice(cut) },
    { type: 'response.function_call_arguments.done', ...at, arguments: args },
    { type: 'response.output_item.done', output_index: outputIndex, item },
  ];
}

export const openaiWire: WireFormat = {
  name: 'openai',
  wantsStream: (request) => request.body?.stream === true,
  json: (answer, request) => responseObject(answer, request, 'completed', outputItems(answer)),
  stream(answer, request) {
    const items = outputItems(answer);
    const events: Item[] = [
      { type: 'response.created', response: responseObject(answer, request, 'in_progress', []) },
      { type: 'response.in_progress', response: responseObject(answer, request, 'in_progress', []) },
      ...items.flatMap((item, index) => itemEvents(answer, item, index)),
      { type: 'response.completed', response: responseObject(answer, request, 'completed', items) },
    ];
    const chunks = events.map((event, sequence) => sseFrame({ ...event, sequence_number: sequence }, String(event.type)));
    return { contentType: SSE, chunks };
  },
  errorBody: (status, message) => ({
    error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', param: null, code: status === 429 ? 'rate_limit_exceeded' : null },
  }),
};

export function startOpenAIFake(): Promise<FakeProvider> {
  return startFake(openaiWire);
}
