import { z } from 'zod';
import { DURATION_FORMAT, parseDuration } from './duration.js';
import { normalizeOutputSchema } from './normalizeOutputSchema.js';
import { dreamsSchema } from './dreams.js';
import { schedulesSchema } from './schedules.js';

// One schema for a syndicate file. Field names follow melchizedek-agents so its files load
// unchanged; unknown keys are refused so a typo is an error, not a silently ignored field.

const agentName = z
  .string()
  .regex(/^[A-Za-z_$][A-Za-z0-9_$-]*$/, 'must be an identifier: letters, digits, _, $ or -, not starting with a digit')
  .refine((name) => name.toLowerCase() !== 'user', 'cannot be "user" (reserved for the person talking)');

/** An enum the melchizedek-agents documentation writes in Gemini's style (`MEDIUM`, `block_none`): any case is accepted, stored in the case the provider takes. */
function enumIgnoringCase<const T extends readonly [string, ...string[]]>(values: T, stored: 'lower' | 'upper') {
  return z.preprocess((value) => (typeof value === 'string' ? (stored === 'lower' ? value.toLowerCase() : value.toUpperCase()) : value), z.enum(values));
}

export const THINKING_LEVELS = ['minimal', 'low', 'medium', 'high'] as const;

// The values @ai-sdk/google validates safetySettings against (its providerOptions schema).
const HARM_CATEGORIES = [
  'HARM_CATEGORY_UNSPECIFIED',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
] as const;
const HARM_THRESHOLDS = ['HARM_BLOCK_THRESHOLD_UNSPECIFIED', 'BLOCK_LOW_AND_ABOVE', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_ONLY_HIGH', 'BLOCK_NONE', 'OFF'] as const;

export const thinkingConfigSchema = z
  .object({
    thinkingBudget: z.number().int().optional(),
    thinkingLevel: enumIgnoringCase(THINKING_LEVELS, 'lower').optional(),
    includeThoughts: z.boolean().optional(),
  })
  .strict()
  .refine((c) => c.thinkingBudget === undefined || c.thinkingLevel === undefined, 'set thinkingBudget or thinkingLevel, not both');

export const generateContentConfigSchema = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    topK: z.number().int().positive().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    stopSequences: z.array(z.string()).optional(),
    candidateCount: z.number().int().positive().optional(),
    presencePenalty: z.number().optional(),
    frequencyPenalty: z.number().optional(),
    seed: z.number().int().optional(),
    responseMimeType: z.string().optional(),
    safetySettings: z.array(z.object({ category: enumIgnoringCase(HARM_CATEGORIES, 'upper'), threshold: enumIgnoringCase(HARM_THRESHOLDS, 'upper') }).strict()).optional(),
    thinkingConfig: thinkingConfigSchema.optional(),
  })
  .strict();

/** JSON Schema as written in YAML (Gemini-style UPPERCASE types or standard lowercase ones), parsed to lowercase JSON Schema 7. */
export const outputSchemaSchema = z.record(z.string(), z.unknown()).transform((schema, ctx) => {
  const { schema: normalized, problems } = normalizeOutputSchema(schema);
  for (const problem of problems) ctx.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
  return normalized;
});

export const scriptStepSchema = z
  .object({
    match: z.string().optional(),
    regex: z.string().optional(),
    flags: z.string().optional(),
    reply: z.string().optional(),
    tool_calls: z.array(z.object({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }).strict()).optional(),
    json: z.unknown().optional(),
    thinking: z.string().optional(),
    error: z.enum(['rate_limit', 'timeout', 'malformed', 'server']).optional(),
    repeat: z.boolean().optional(),
  })
  .strict();

export const scriptSchema = z.array(scriptStepSchema);

const mcpServerName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}$/, 'must be 1-32 letters, digits, _ or -, starting with a letter: it prefixes the server\'s tool names (<name>_<tool>)');

const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable');

/**
 * One MCP server of an agent. stdio servers are started as child processes; http servers speak
 * Streamable HTTP (falling back to the deprecated HTTP+SSE transport), sse servers only the
 * latter. Secrets never sit in the file: header values come from environment variables named
 * in `headers_env` (`{Authorization: MY_TOKEN}` sends the variable's whole value, e.g.
 * "Bearer abc"), and a stdio server inherits the variables listed in `inherit_env`.
 */
export const mcpServerSchema = z.discriminatedUnion(
  'transport',
  [
    z
      .object({
        name: mcpServerName,
        transport: z.literal('stdio'),
        command: z.string().min(1),
        args: z.array(z.string()).optional(),
        env: z.record(envVarName, z.string()).optional(),
        inherit_env: z.array(envVarName).optional(),
        cwd: z.string().min(1).optional(),
      })
      .strict(),
    z
      .object({
        name: mcpServerName,
        transport: z.enum(['http', 'sse']),
        url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://example.com/mcp' }),
        headers_env: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name'), envVarName).optional(),
      })
      .strict(),
  ],
  { error: "transport must be 'stdio' (with command), 'http' (Streamable HTTP, with url) or 'sse' (the older HTTP+SSE transport, with url)" },
);

const agentFields = {
  name: agentName,
  description: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  instruction: z.string().min(1).optional(),
  globalInstruction: z.string().optional(),
  tools: z.array(z.string().min(1)).optional(),
  includeContents: z.enum(['default', 'none']).optional(),
  disallowTransferToParent: z.boolean().optional(),
  disallowTransferToPeers: z.boolean().optional(),
  outputKey: z.string().optional(),
  generateContentConfig: generateContentConfigSchema.optional(),
  outputSchema: outputSchemaSchema.optional(),
  mcp_server_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://localhost:8000/mcp' }).optional(),
  mcp_servers: z
    .array(mcpServerSchema)
    .superRefine((servers, ctx) => {
      servers.forEach((server, index) => {
        if (servers.findIndex((other) => other.name === server.name) < index) {
          ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `another server of this agent is already named '${server.name}': names prefix tool names, so they must differ` });
        }
      });
    })
    .optional(),
  orchestration: z
    .object({ role: z.enum(['primary', 'sub-agent']).optional(), delegates: z.array(z.string()).optional() })
    .strict()
    .optional(),
  script: scriptSchema.optional(),
  /** Code mode: the model writes a script that calls this agent's tools as functions (execute_code). */
  code_mode: z.boolean().optional(),
  /** Skills (agentskills.io folders): paths relative to this file, or names in .agents/skills/ (the project's, then ~/). */
  skills: z.array(z.string().min(1)).optional(),
};

export const orchestratorSchema = z
  .object({ ...agentFields, model: z.string().min(1), instruction: z.string().min(1) })
  .strict();

const remoteAgentUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL: the remote agent card, e.g. https://example.com/.well-known/agent-card.json' });

export const subagentSchema = z
  .object({
    ...agentFields,
    // Optional on a remote A2A agent, whose card describes it; required otherwise (below).
    description: z.string().min(1).optional(),
    yaml_reference: z.string().min(1).optional(),
    /** A remote A2A agent: its agent card URL (or its base URL, where the card is at /.well-known/agent-card.json). */
    a2a_url: remoteAgentUrl.optional(),
    /** melchizedek-agents' name for a2a_url. */
    a2a_agent_url: remoteAgentUrl.optional(),
    /** The environment variable holding the remote agent's bearer token. */
    a2a_auth_env: envVarName.optional(),
  })
  .strict()
  .superRefine((agent, ctx) => {
    const remote = agent.a2a_url ?? agent.a2a_agent_url;
    if (agent.a2a_url && agent.a2a_agent_url) {
      ctx.addIssue({ code: 'custom', path: ['a2a_agent_url'], message: 'set a2a_url or a2a_agent_url (its older name), not both' });
    }
    if (agent.yaml_reference && remote) {
      ctx.addIssue({ code: 'custom', path: ['yaml_reference'], message: 'set yaml_reference or a2a_url, not both' });
    }
    if (agent.a2a_auth_env && !remote) {
      ctx.addIssue({ code: 'custom', path: ['a2a_auth_env'], message: 'only used with a2a_url: it names the variable holding the remote agent\'s bearer token' });
    }
    if (!agent.description && !remote) ctx.addIssue({ code: 'custom', path: ['description'], message: 'required' });
    if (!agent.instruction && !agent.yaml_reference && !remote) {
      ctx.addIssue({
        code: 'custom',
        path: ['instruction'],
        message: 'required (or mount another syndicate with yaml_reference)',
      });
    }
  });

export const routeOverrideSchema = z
  .object({
    route: z.string().min(1),
    pattern: z.string().min(1),
    flags: z.string().optional(),
    reason: z.string().optional(),
  })
  .strict();

export const dispatchSchema = z
  .object({
    default_route: z.string().min(1),
    route_key: z.string().min(1).optional(),
    reason_key: z.string().min(1).optional(),
    route_overrides: z.array(routeOverrideSchema).optional(),
    /** `model` (default): the orchestrator's model classifies; `embedding`: similarity to each route's description, no model call. */
    classifier: z.enum(['model', 'embedding']).optional(),
    /** With classifier: embedding, below this cosine similarity the turn goes to default_route. */
    min_similarity: z.number().min(-1).max(1).optional(),
  })
  .strict();

/** A duration in milliseconds, written as 90s, 5m, ... (config/duration.ts). */
const durationSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === undefined) ctx.addIssue({ code: 'custom', message: `must be a duration above zero: ${DURATION_FORMAT}` });
  return ms ?? 0;
});

export const variableValueSchema = z.union([z.string(), z.number(), z.boolean()]);

export const syndicateFileSchema = z
  .object({
    syndicate_name: z.string().min(1),
    description: z.string().optional(),
    memory_system: z.enum(['internal-only', 'session-only', 'long-term']).optional(),
    memory_namespace: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,96}$/, 'must be 1-96 characters of letters, digits, ., _ or -')
      .optional(),
    memory_extraction_rules: z.string().optional(),
    memory_embedding: z.string().min(1).optional(),
    memory_extraction_model: z.string().min(1).optional(),
    variables: z.record(z.string(), variableValueSchema).optional(),
    guards: z.array(z.string().min(1)).optional(),
    max_steps: z.number().int().positive().optional(),
    /** How long one model call may go without progress before it is retried (`--timeout`). */
    timeout: durationSchema.optional(),
    /** How long a whole turn may take before it is stopped (`--deadline`). */
    deadline: durationSchema.optional(),
    /** What a server does with a message to a session whose turn is still running (double texting). */
    concurrency: z.enum(['enqueue', 'reject', 'interrupt']).optional(),
    /** Code mode for every agent of the syndicate that does not set its own code_mode. */
    code_mode: z.boolean().optional(),
    dispatch: dispatchSchema.optional(),
    orchestrator: orchestratorSchema,
    /** Optional: a syndicate of one agent (the orchestrator alone) is a plain agent with tools. */
    subagents: z.array(subagentSchema).optional(),
    /** An unattended reflection per user silo (config/dreams.ts, scheduler/dreams). */
    dreams: dreamsSchema.optional(),
    /** Tasks that send a message on a cron or at one instant (config/schedules.ts, scheduler/tasks). */
    schedules: schedulesSchema.optional(),
  })
  .strict();

export type ThinkingConfig = z.infer<typeof thinkingConfigSchema>;
export type GenerateContentConfig = z.infer<typeof generateContentConfigSchema>;
export type ScriptStep = z.infer<typeof scriptStepSchema>;
export type McpServerConfig = z.infer<typeof mcpServerSchema>;
export type OrchestratorConfig = z.infer<typeof orchestratorSchema>;
export type SubagentConfig = z.infer<typeof subagentSchema>;
export type DispatchConfig = z.infer<typeof dispatchSchema>;
export type RouteOverride = z.infer<typeof routeOverrideSchema>;
export type VariableValue = z.infer<typeof variableValueSchema>;
export type SyndicateFile = z.infer<typeof syndicateFileSchema>;
export type MemorySystem = NonNullable<SyndicateFile['memory_system']>;
export type Concurrency = NonNullable<SyndicateFile['concurrency']>;
