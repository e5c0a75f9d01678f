import { hostHeaderValidationResponse, localhostAllowedHostnames, localhostAllowedOrigins, originValidationResponse } from '@modelcontextprotocol/server';
import { USER_HEADER, userIdProblem, type Caller } from '../../a2a/caller.js';
import { presentedToken, tokenMatches } from './bearerToken.js';
import { userOfToken, type UserTokens } from './userTokens.js';

// Checks every HTTP request passes before it reaches MCP: Host and Origin against DNS
// rebinding (the MCP transport spec requires Origin validation), then who is calling. As on
// the A2A face, the shared token authenticates a client that may name its end user in
// X-Syndicate-User; a user's own token authenticates that user. Without tokens (loopback only)
// the caller is this machine's local user, or the user the header names.

export interface HttpGuardPolicy {
  /** Bound to a loopback address: only loopback Host names are accepted. */
  loopback: boolean;
  /** The shared token: `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** Tokens that each authenticate one user. */
  userTokens: UserTokens;
  /** Origin hostnames browsers may call from, beyond localhost on a loopback bind. */
  allowedOrigins: readonly string[];
}

/** A request the guards accept, with its caller; or the response refusing it. */
export type GuardOutcome = { caller: Caller } | { refused: Response };

function refusal(status: number, code: number, message: string, headers: Record<string, string> = {}): { refused: Response } {
  return { refused: Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers }) };
}

function unauthorized(): { refused: Response } {
  return refusal(401, -32001, 'Unauthorized: send Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' });
}

function authenticate(request: Request, policy: HttpGuardPolicy): GuardOutcome {
  const named = request.headers.get(USER_HEADER) ?? undefined;
  const problem = named === undefined ? undefined : userIdProblem(named);
  if (problem !== undefined) return refusal(400, -32600, `Bad Request: ${problem}`);
  if (policy.token === undefined && policy.userTokens.size === 0) return { caller: { principal: 'local', userId: named } };
  const presented = presentedToken(request.headers.get('authorization'));
  const user = userOfToken(presented, policy.userTokens);
  if (user !== undefined) {
    if (named !== undefined && named !== user) return refusal(403, -32001, `Forbidden: this token is ${user}'s, and ${USER_HEADER} names '${named}'; send ${user}'s own requests, or leave the header out`);
    return { caller: { principal: 'client', userId: user } };
  }
  if (policy.token !== undefined && tokenMatches(presented, policy.token)) return { caller: { principal: 'client', userId: named } };
  return unauthorized();
}

/** The caller of `request`, or the response refusing it. */
export function guardRequest(request: Request, policy: HttpGuardPolicy): GuardOutcome {
  // On a public bind the Host is whatever name the machine is reached by, so it cannot be
  // listed; the required token is what stops a rebound page there (it cannot know it).
  const badHost = policy.loopback ? hostHeaderValidationResponse(request, localhostAllowedHostnames()) : undefined;
  if (badHost) return { refused: badHost };
  const origins = [...(policy.loopback ? localhostAllowedOrigins() : []), ...policy.allowedOrigins];
  const badOrigin = originValidationResponse(request, origins);
  if (badOrigin) return { refused: badOrigin };
  return authenticate(request, policy);
}
