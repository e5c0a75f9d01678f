import { hostHeaderValidationResponse, localhostAllowedHostnames, localhostAllowedOrigins, originValidationResponse } from '@modelcontextprotocol/server';
import { bearerMatches } from './bearerToken.js';

// Checks every HTTP request passes before it reaches MCP: Host and Origin against DNS
// rebinding (the MCP transport spec requires Origin validation), then the bearer token.

export interface HttpGuardPolicy {
  /** Bound to a loopback address: only loopback Host names are accepted. */
  loopback: boolean;
  /** Required in `Authorization: Bearer <token>` when set. */
  token: string | undefined;
  /** Origin hostnames browsers may call from, beyond localhost on a loopback bind. */
  allowedOrigins: readonly string[];
}

function unauthorized(): Response {
  const body = { jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized: send Authorization: Bearer <token>' }, id: null };
  return Response.json(body, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
}

/** A response refusing `request`, or undefined when it may proceed. */
export function guardResponse(request: Request, policy: HttpGuardPolicy): Response | undefined {
  // On a public bind the Host is whatever name the machine is reached by, so it cannot be
  // listed; the required token is what stops a rebound page there (it cannot know it).
  const badHost = policy.loopback ? hostHeaderValidationResponse(request, localhostAllowedHostnames()) : undefined;
  if (badHost) return badHost;
  const origins = [...(policy.loopback ? localhostAllowedOrigins() : []), ...policy.allowedOrigins];
  const badOrigin = originValidationResponse(request, origins);
  if (badOrigin) return badOrigin;
  if (policy.token !== undefined && !bearerMatches(request.headers.get('authorization'), policy.token)) return unauthorized();
  return undefined;
}
