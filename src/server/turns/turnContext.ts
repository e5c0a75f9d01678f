import type { BackgroundCapability } from '../../runtime/background.js';
import type { ServerContext } from '../context.js';

/** What the turn routes share: the server's context and the job runner their turns start background jobs on. */
export interface TurnContext extends ServerContext {
  background: BackgroundCapability | undefined;
}
