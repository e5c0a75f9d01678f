import type { ServerContext, TurnService } from '../context.js';
import { agUiRoutes } from './agUiRoutes.js';
import { chatRoutes } from './chatRoutes.js';
import { scheduledTurn } from './scheduledTurn.js';
import { createSessionHub } from './sessionHub.js';
import { turnRoutes } from './turnRoutes.js';

/** The server's turns: one line and one broadcast per session, streamed in Syndicate's own format, the AI SDK's and AG-UI's. */
export function createTurnService(ctx: ServerContext): TurnService {
  const hub = createSessionHub(ctx.warn);
  return {
    routes: [...turnRoutes(ctx, hub), ...chatRoutes(ctx, hub), ...agUiRoutes(ctx, hub)],
    running: () => hub.running(),
    runScheduled: scheduledTurn(ctx, hub),
    drain: (graceMs) => hub.drain(graceMs),
  };
}
