import type { McpServerConfig } from '../../config/schema.js';

// What it takes to reach one MCP server, resolved from an agent's definition. Environment
// lookups (header values, inherited variables) happen when the server is connected, so a
// missing variable is reported as that server being unavailable, naming the variable.

export type McpServerSpec =
  | { transport: 'stdio'; name: string; command: string; args: string[]; env: Record<string, string>; inheritEnv: string[]; cwd: string | undefined }
  /** `name` is undefined for `mcp_server_url`: the server's own name is used. */
  | { transport: 'http' | 'sse'; name: string | undefined; url: URL; headersEnv: Record<string, string> };

export function serverSpecsOf(agent: { mcpServerUrl: string | undefined; mcpServers: readonly McpServerConfig[] }): McpServerSpec[] {
  const declared = agent.mcpServers.map((server): McpServerSpec => {
    if (server.transport === 'stdio') {
      return { transport: 'stdio', name: server.name, command: server.command, args: server.args ?? [], env: server.env ?? {}, inheritEnv: server.inherit_env ?? [], cwd: server.cwd };
    }
    return { transport: server.transport, name: server.name, url: new URL(server.url), headersEnv: server.headers_env ?? {} };
  });
  if (agent.mcpServerUrl === undefined) return declared;
  return [{ transport: 'http', name: undefined, url: new URL(agent.mcpServerUrl), headersEnv: {} }, ...declared];
}

/** How the server is named in messages before it has told us its name. */
export function serverLabel(spec: McpServerSpec): string {
  if (spec.name !== undefined) return spec.name;
  return spec.transport === 'stdio' ? spec.command : spec.url.href;
}

/** A problem here is the configuration's: retrying cannot fix it, so it is not retried. */
export type Resolved<T> = { ok: true; value: T } | { ok: false; problem: string; permanent: true };

function missing(variable: string, use: string): string {
  return `${use} needs the environment variable ${variable}, which is not set: set it (a .env file in the current directory works too)`;
}

export function resolveHeaders(headersEnv: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv): Resolved<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const [header, variable] of Object.entries(headersEnv)) {
    const value = env[variable];
    if (value === undefined || value === '') return { ok: false, problem: missing(variable, `the ${header} header`), permanent: true };
    headers[header] = value;
  }
  return { ok: true, value: headers };
}

/** The variables a stdio server gets besides the SDK's safe defaults (PATH, HOME, ...): those it inherits by name, then its own. */
export function resolveStdioEnv(spec: Extract<McpServerSpec, { transport: 'stdio' }>, env: NodeJS.ProcessEnv): Resolved<Record<string, string>> {
  const inherited: Record<string, string> = {};
  for (const variable of spec.inheritEnv) {
    const value = env[variable];
    if (value === undefined) return { ok: false, problem: missing(variable, `inherit_env`), permanent: true };
    inherited[variable] = value;
  }
  return { ok: true, value: { ...inherited, ...spec.env } };
}
