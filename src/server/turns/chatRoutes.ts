import { z } from 'zod';
import { defineRoute, fail, noContent, written, type AnyRoute } from '../http/route.js';
import { clientSessionIdSchema, sessionIdFor } from '../sessionAccess.js';
import { uiMessageStreamFormat } from './formats/uiMessageStream.js';
import { isReply, loadedSyndicate } from './lookups.js';
import type { SessionHub } from './sessionHub.js';
import { startTurn } from './startTurn.js';
import type { TurnContext } from './turnContext.js';
import { streamLiveTurn } from './streamTurn.js';

// The AI SDK's chat protocol, so useChat (DefaultChatTransport) talks to a syndicate: the chat id
// names the caller's session, the last user message is the turn's input (the session keeps the
// history, so earlier messages are not replayed), and the reply is a UI message stream (v1).

const partSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const chatBody = z.looseObject({
  id: clientSessionIdSchema,
  messages: z.array(z.looseObject({ id: z.string().optional(), role: z.enum(['system', 'user', 'assistant']), parts: z.array(partSchema) })).min(1),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().optional(),
});

type ChatBody = z.output<typeof chatBody>;

function lastUserText(messages: ChatBody['messages']): string {
  const message = messages.findLast((each) => each.role === 'user');
  return (message?.parts ?? []).flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join('\n');
}

const UI_STREAM = { description: 'AI SDK UI message stream (v1): SSE data lines of UIMessageChunks, ending with [DONE]', contentType: 'text/event-stream' };

export function chatRoutes(ctx: TurnContext, hub: SessionHub): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/syndicates/:id/chat',
      operationId: 'chat',
      summary: "Runs a turn for the AI SDK's useChat / DefaultChatTransport and streams it as a UI message stream (v1)",
      description: "The chat id names the caller's session; the last user message is the input. A message while the session's turn runs follows the syndicate's `concurrency:` (enqueue, reject: 409, interrupt).",
      tag: 'Turns',
      access: 'member' as const,
      params: z.object({ id: z.string().min(1) }),
      body: chatBody,
      responses: { 200: UI_STREAM, 404: { description: 'Unknown syndicate' }, 409: { description: 'The session is busy and its syndicate sets concurrency: reject' } },
      async handle({ params, body, caller, res }) {
        const syndicate = loadedSyndicate(ctx, params.id);
        if (isReply(syndicate)) return syndicate;
        const input = lastUserText(body.messages);
        if (input === '') return fail(400, 'messages: the last user message has no text part; send the message as a text part');
        const turn = startTurn(ctx, hub, { syndicate, sessionId: sessionIdFor(caller.userId, body.id), input, userId: caller.userId, newSession: false });
        if (isReply(turn)) return turn;
        streamLiveTurn(res, uiMessageStreamFormat(), turn, undefined);
        return written();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/syndicates/:id/chat/:chatId/stream',
      operationId: 'resumeChat',
      summary: "Resumes a chat's running turn as a UI message stream from its start (DefaultChatTransport.reconnectToStream); 204 when none runs",
      tag: 'Turns',
      access: 'viewer' as const,
      params: z.object({ id: z.string().min(1), chatId: clientSessionIdSchema }),
      responses: { 200: UI_STREAM, 204: { description: 'No turn is running in this chat' }, 404: { description: 'Unknown syndicate' } },
      async handle({ params, caller, res }) {
        const syndicate = loadedSyndicate(ctx, params.id);
        if (isReply(syndicate)) return syndicate;
        const turn = hub.current(sessionIdFor(caller.userId, params.chatId));
        if (turn === undefined) return noContent();
        streamLiveTurn(res, uiMessageStreamFormat(), turn, undefined);
        return written();
      },
    }),
  ];
}
