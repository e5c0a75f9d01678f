import { z } from 'zod';
import { defineRoute, fail, written, type AnyRoute } from '../http/route.js';
import { clientSessionIdSchema, sessionIdFor } from '../sessionAccess.js';
import { agUiFormat } from './formats/agUi.js';
import { isReply, loadedSyndicate } from './lookups.js';
import type { SessionHub } from './sessionHub.js';
import { startTurn } from './startTurn.js';
import type { TurnContext } from './turnContext.js';
import { streamLiveTurn } from './streamTurn.js';

// AG-UI's HTTP binding, so @ag-ui/client's HttpAgent and CopilotKit run a syndicate: the thread id
// names the caller's session, the last user message is the input, the reply is AG-UI events as SSE.

const contentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]);

const runAgentInput = z.looseObject({
  threadId: clientSessionIdSchema,
  runId: z.string().min(1).max(256),
  messages: z.array(z.looseObject({ id: z.string().optional(), role: z.string(), content: contentSchema.optional() })),
  state: z.unknown().optional(),
  tools: z.array(z.unknown()).optional(),
  context: z.array(z.unknown()).optional(),
  forwardedProps: z.unknown().optional(),
});

type RunAgentBody = z.output<typeof runAgentInput>;

function lastUserText(messages: RunAgentBody['messages']): string {
  const content = messages.findLast((message) => message.role === 'user')?.content;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join('\n');
}

export function agUiRoutes(ctx: TurnContext, hub: SessionHub): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/syndicates/:id/ag-ui',
      operationId: 'runAgUi',
      summary: 'Runs a turn for an AG-UI client (RunAgentInput) and streams AG-UI events',
      description: "The thread id names the caller's session; the last user message is the input. A message while the session's turn runs follows the syndicate's `concurrency:` (enqueue, reject: 409, interrupt).",
      tag: 'Turns',
      access: 'member' as const,
      params: z.object({ id: z.string().min(1) }),
      body: runAgentInput,
      responses: { 200: { description: 'AG-UI events as SSE data lines', contentType: 'text/event-stream' }, 404: { description: 'Unknown syndicate' }, 409: { description: 'The session is busy and its syndicate sets concurrency: reject' } },
      async handle({ params, body, caller, res }) {
        const syndicate = loadedSyndicate(ctx, params.id);
        if (isReply(syndicate)) return syndicate;
        const input = lastUserText(body.messages);
        if (input === '') return fail(400, 'messages: there is no user message with text; send the message as a user message with text content');
        const turn = startTurn(ctx, hub, { syndicate, sessionId: sessionIdFor(caller.userId, body.threadId), input, userId: caller.userId, newSession: false });
        if (isReply(turn)) return turn;
        streamLiveTurn(res, agUiFormat({ threadId: body.threadId, runId: body.runId }), turn, undefined);
        return written();
      },
    }),
  ];
}
