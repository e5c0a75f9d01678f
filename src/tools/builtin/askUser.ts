import { z } from 'zod';
import { defineTool } from '../../core/tool.js';

// The agent asks whoever sent the message for something only they can supply. The tool itself
// only validates and echoes the question: the runtime ends the turn on a successful call, waiting
// for input (A2A: INPUT_REQUIRED), and the reply arrives as the next turn of the session.

export const ASK_USER = 'ask_user';

const inputSchema = z.object({
  question: z.string().trim().min(1).describe('The question for the user: what you need, and why, in one or two sentences.'),
});

export const askUser = defineTool({
  name: ASK_USER,
  description:
    'Ask the user for information you need and cannot find out yourself (a missing detail, a choice only they can make). Your turn ends with the question; their answer arrives as the next message.',
  inputSchema,
  execute: ({ question }) => ({ question }),
});

/**
 * Ends a turn that waits for the user's answer: thrown by the runtime after a successful ask_user
 * call, and by a remote A2A agent whose task asks for input. It passes up through delegations, so
 * the question reaches the user from any depth (see isTurnFatal).
 */
export class UserInputRequired extends Error {
  override readonly name = 'UserInputRequired';
  constructor(
    readonly agent: string,
    readonly question: string,
  ) {
    super(`${agent} needs more input from the user: ${question}`);
  }
}
