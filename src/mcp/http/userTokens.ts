import { userIdProblem } from '../../a2a/caller.js';
import { MIN_TOKEN_LENGTH, tokenMatches } from './bearerToken.js';

// Bearer tokens that each stand for one user (SYNDICATE_MCP_USER_TOKENS="alice=<token>,bob=<token>"):
// a request presenting one is that user's, and uses that user's memory silo and sessions.

/** Token -> the user it authenticates. */
export type UserTokens = ReadonlyMap<string, string>;

/** Parses `user=token,user=token`; throws a message naming the entry and how to fix it. */
export function parseUserTokens(value: string, variable: string): UserTokens {
  const tokens = new Map<string, string>();
  const users = new Set<string>();
  for (const entry of value.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const split = entry.indexOf('=');
    const user = entry.slice(0, split).trim();
    const token = entry.slice(split + 1).trim();
    if (split < 1 || token === '') throw new Error(`${variable}: '${user || entry}' is not user=token; write e.g. alice=$(openssl rand -hex 32),bob=...`);
    const problem = userIdProblem(user);
    if (problem !== undefined) throw new Error(`${variable}: the user '${user}' is not a valid user id (${problem.replace(/^\S+ /, '')})`);
    if (token.length < MIN_TOKEN_LENGTH) throw new Error(`${variable}: ${user}'s token is too short: use at least ${MIN_TOKEN_LENGTH} random characters (e.g. openssl rand -hex 32)`);
    if (users.has(user)) throw new Error(`${variable}: the user '${user}' is listed twice; give each user one token`);
    if (tokens.has(token)) throw new Error(`${variable}: ${tokens.get(token)} and ${user} share a token; give each user a token of their own`);
    users.add(user);
    tokens.set(token, user);
  }
  return tokens;
}

/** The user a presented token authenticates, comparing it with every token (no early exit, so timing says nothing). */
export function userOfToken(presented: string | undefined, tokens: UserTokens): string | undefined {
  let user: string | undefined;
  for (const [token, name] of tokens) if (tokenMatches(presented, token)) user = name;
  return user;
}
