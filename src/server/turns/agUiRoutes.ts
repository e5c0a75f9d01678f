import { z } from 'zod';
import type { TurnRecord } from '../../runtime/projectTranscript.js';
import { openQuestion, storedHistory } from '../../runtime/sessionHistory.js';
import { defineRoute, fail, written, type AnyRoute, type Reply } from '../http/route.js';
import { clientSessionIdSchema, sessionIdFor } from '../sessionAccess.js';
import { agUiFormat } from './formats/agUi.js';
import { isReply, loadedSyndicate } from './lookups.js';
import type { SessionHub } from './sessionHub.js';
import { startTurn } from './startTurn.js';
import type { TurnContext } from './turnContext.js';
import { streamLiveTurn } from './streamTurn.js';

// AG-UI's HTTP binding, so @ag-ui/client's HttpAgent and CopilotKit run a syndicate: the thread id
// names the caller's session, the last user message is the input, the reply is AG-UI events as SSE.
// A run that ended on a question (RUN_FINISHED with the interrupt outcome) is continued by a run
// whose `resume` answers it: the answer is the session's next message, as it is for POST /turns.

const contentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]);

const interruptId = z.string().min(1).max(256).describe('The id of the interrupt answered: the id of the turn that asked');
const resumeMetadata = z.record(z.string(), z.unknown()).optional();

const resumeEntry = z.discriminatedUnion('status', [
  z.looseObject({ interruptId, status: z.literal('resolved'), payload: z.string().trim().min(1).max(100_000).describe('The answer to the question, as text'), metadata: resumeMetadata }),
  z.looseObject({ interruptId, status: z.literal('cancelled'), payload: z.unknown().optional(), metadata: resumeMetadata }),
]);

const runAgentInput = z.looseObject({
  threadId: clientSessionIdSchema,
  runId: z.string().min(1).max(256),
  messages: z.array(z.looseObject({ id: z.string().optional(), role: z.string(), content: contentSchema.optional() })),
  state: z.unknown().optional(),
  tools: z.array(z.unknown()).optional(),
  context: z.array(z.unknown()).optional(),
  forwardedProps: z.unknown().optional(),
  resume: z.array(resumeEntry).max(16).optional().describe('Answers to the interrupt the thread\'s last run ended on; when present, the run continues from it and `messages` are not read'),
});

type RunAgentBody = z.output<typeof runAgentInput>;
type ResumeEntry = z.output<typeof resumeEntry>;

/** What the asking agent reads when the user abandons its question: they will not answer, so it goes on without. */
const DECLINED_ANSWER = '(The user declined to answer the question. Go on without the answer.)';

function lastUserText(messages: RunAgentBody['messages']): string {
  const content = messages.findLast((message) => message.role === 'user')?.content;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join('\n');
}

/**
 * The session's next message a resume makes, or why the thread takes none: its run must have ended
 * on the question (`asked`, the session's open one) the entry answers, and no turn of it may be
 * running or waiting (a question opens only when its turn ends).
 */
function resumedInput(hub: SessionHub, threadId: string, sessionId: string, asked: TurnRecord | undefined, resume: readonly ResumeEntry[]): string | Reply {
  if (hub.current(sessionId) !== undefined) return fail(409, `resume: thread '${threadId}' has a run going, so nothing waits for an answer; wait for its RUN_FINISHED`);
  if (asked === undefined) return fail(409, `resume: thread '${threadId}' has no interrupt waiting for an answer; send a user message instead`);
  const unknown = resume.filter((entry) => entry.interruptId !== asked.turnId).map((entry) => `'${entry.interruptId}'`);
  if (unknown.length > 0) return fail(409, `resume: thread '${threadId}' has no interrupt ${unknown.join(', ')}; the one waiting for an answer is '${asked.turnId}'`);
  if (resume.length > 1) return fail(400, `resume: interrupt '${asked.turnId}' is answered ${resume.length} times; send one entry for it`);
  const [entry] = resume as [ResumeEntry];
  return entry.status === 'resolved' ? entry.payload : DECLINED_ANSWER;
}

export function agUiRoutes(ctx: TurnContext, hub: SessionHub): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/syndicates/:id/ag-ui',
      operationId: 'runAgUi',
      summary: 'Runs a turn for an AG-UI client (RunAgentInput) and streams AG-UI events',
      description:
        "The thread id names the caller's session; the last user message is the input. A message while the session's turn runs follows the syndicate's `concurrency:` (enqueue, reject: 409, interrupt). " +
        "A turn that asks the user (ask_user, or a remote agent asking for input) ends with RUN_FINISHED and the interrupt outcome: one interrupt, its id the turn's id, its message the question. " +
        `The next run answers it with \`resume\`: \`resolved\` with the answer as a text \`payload\`, or \`cancelled\`, which tells the asking agent the user declined ("${DECLINED_ANSWER}"); the turn goes on and streams as this run. ` +
        'A resume naming an interrupt the thread does not wait on, or sent while the thread has a run going, is a 409, and nothing is stored. A run without `resume` answers a waiting question with its last user message, as POST /turns does.',
      tag: 'Turns',
      access: 'member' as const,
      params: z.object({ id: z.string().min(1) }),
      body: runAgentInput,
      responses: {
        200: { description: 'AG-UI events as SSE data lines', contentType: 'text/event-stream' },
        404: { description: 'Unknown syndicate' },
        409: { description: 'The session is busy and its syndicate sets concurrency: reject; or a resume names no interrupt the thread waits on' },
      },
      async handle({ params, body, caller, res }) {
        const syndicate = loadedSyndicate(ctx, params.id);
        if (isReply(syndicate)) return syndicate;
        const sessionId = sessionIdFor(caller.userId, body.threadId);
        const resume = body.resume ?? [];
        // The last await before the turn starts: a second resume of the same question, checked after this one's turn is admitted, finds it running.
        const asked = resume.length > 0 ? openQuestion(await storedHistory(await ctx.platform.store(), sessionId)) : undefined;
        const input = resume.length > 0 ? resumedInput(hub, body.threadId, sessionId, asked, resume) : lastUserText(body.messages);
        if (isReply(input)) return input;
        if (input === '') return fail(400, 'messages: there is no user message with text; send the message as a user message with text content');
        const turn = startTurn(ctx, hub, { syndicate, sessionId, input, userId: caller.userId, newSession: false });
        if (isReply(turn)) return turn;
        streamLiveTurn(res, agUiFormat({ threadId: body.threadId, runId: body.runId }), turn, undefined);
        return written();
      },
    }),
  ];
}
