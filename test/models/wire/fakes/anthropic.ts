import { SSE, sseFrame, startFake, type AnswerScript, type FakeProvider, type RecordedRequest, type WireFormat } from './server.js';

// Anthropic Messages API: POST /v1/messages, whole JSON or (with "stream": true) SSE events
// message_start, content_block_start/delta/stop per block, message_delta, message_stop.

export const SIGNATURE = 'sig-from-fake';

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function blocksOf(answer: AnswerScript): Block[] {
  const blocks: Block[] = [];
  if (answer.thinking) blocks.push({ type: 'thinking', thinking: answer.thinking.join(''), signature: SIGNATURE });
  if (answer.text) blocks.push({ type: 'text', text: answer.text.join('') });
  for (const call of answer.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
  return blocks;
}

function usageOf(answer: AnswerScript): Record<string, unknown> {
  const usage = answer.usage ?? { input: 10, output: 5 };
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    ...(usage.reasoning !== undefined ? { output_tokens_details: { thinking_tokens: usage.reasoning } } : {}),
  };
}

function stopReason(answer: AnswerScript): string {
  return answer.toolCalls?.length ? 'tool_use' : 'end_turn';
}

function model(request: RecordedRequest): string {
  return String(request.body?.model);
}

function blockEvents(answer: AnswerScript, index: number, block: Block): string[] {
  const frame = (data: Record<string, unknown>): string => sseFrame(data, String(data.type));
  const delta = (value: Record<string, unknown>): string => frame({ type: 'content_block_delta', index, delta: value });
  const events: string[] = [];
  if (block.type === 'thinking') {
    events.push(frame({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } }));
    for (const piece of answer.thinking ?? []) events.push(delta({ type: 'thinking_delta', thinking: piece }));
    events.push(delta({ type: 'signature_delta', signature: block.signature }));
  } else if (block.type === 'text') {
    events.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    for (const piece of answer.text ?? []) events.push(delta({ type: 'text_delta', text: piece }));
  } else {
    events.push(frame({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
    // The API streams tool input as JSON text in arbitrary pieces; two pieces prove the SDK joins them.
    const json = JSON.stringify(block.input);
    const cut = Math.floor(json.length / 2);
    events.push(delta({ type: 'input_json_delta', partial_json: json.slice(0, cut) }));
    events.push(delta({ type: 'input_json_delta', partial_json: json.slice(cut) }));
  }
  events.push(frame({ type: 'content_block_stop', index }));
  return events;
}

export const anthropicWire: WireFormat = {
  name: 'anthropic',
  wantsStream: (request) => request.body?.stream === true,
  json: (answer, request) => ({
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: model(request),
    content: blocksOf(answer),
    stop_reason: stopReason(answer),
    stop_sequence: null,
    usage: usageOf(answer),
  }),
  stream(answer, request) {
    const usage = usageOf(answer);
    const chunks = [
      sseFrame(
        {
          type: 'message_start',
          message: { id: 'msg_fake', type: 'message', role: 'assistant', model: model(request), content: [], stop_reason: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } },
        },
        'message_start',
      ),
      sseFrame({ type: 'ping' }, 'ping'),
      ...blocksOf(answer).flatMap((block, index) => blockEvents(answer, index, block)),
      sseFrame({ type: 'message_delta', delta: { stop_reason: stopReason(answer), stop_sequence: null }, usage }, 'message_delta'),
      sseFrame({ type: 'message_stop' }, 'message_stop'),
    ];
    return { contentType: SSE, chunks };
  },
  errorBody: (status, message) => ({
    type: 'error',
    error: { type: status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error', message },
  }),
};

export function startAnthropicFake(): Promise<FakeProvider> {
  return startFake(anthropicWire);
}
