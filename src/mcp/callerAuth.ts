import type { AuthInfo } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ownerOf, type Caller } from '../a2a/caller.js';
import type { McpCaller } from './askTool.js';

// Who calls, carried from the HTTP guards to the server instance built for the request: the SDK
// hands the AuthInfo it is given to the server factory untouched. Callers are the A2A face's
// (a principal and an optional user), so a user's silo is named the same on both faces.

const CallerSchema = z.object({ principal: z.enum(['client', 'local']), userId: z.string().optional() });

/** The stdio client, and an HTTP request on a server without tokens that names no user. */
export const LOCAL_CALLER: Caller = { principal: 'local', userId: undefined };

export function authInfoFor(caller: Caller): AuthInfo {
  return { token: '', clientId: ownerOf(caller), scopes: [], extra: { caller } };
}

/** The caller of a server instance: the local one over stdio, the authenticated one over HTTP. */
export function callerOfAuth(authInfo: AuthInfo | undefined, face: McpCaller): Caller {
  if (face === 'stdio') return LOCAL_CALLER;
  const parsed = CallerSchema.safeParse(authInfo?.extra?.caller);
  if (!parsed.success) throw new Error('an MCP HTTP request reached the server without passing authentication');
  return { principal: parsed.data.principal, userId: parsed.data.userId };
}
