import { z } from 'zod';
import { normalizeOutputSchema } from './normalizeOutputSchema.js';

// One schema for a syndicate file. Field names follow melchizedek-agents so its files load
// unchanged; unknown keys are refused so a typo is an error, not a silently ignored field.

const agentName = z
  .string()
  .regex(/^[A-Za-z_$][A-Za-z0-9_$-]*$/, 'must be an identifier: letters, digits, _, $ or -, not starting with a digit')
  .refine((name) => name.toLowerCase() !== 'user', 'cannot be "user" (reserved for the person talking)');

export const thinkingConfigSchema = z
  .object({
    thinkingBudget: z.number().int().optional(),
    thinkingLevel: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
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
    safetySettings: z.array(z.object({ category: z.string(), threshold: z.string() }).passthrough()).optional(),
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
  orchestration: z
    .object({ role: z.enum(['primary', 'sub-agent']).optional(), delegates: z.array(z.string()).optional() })
    .strict()
    .optional(),
  script: scriptSchema.optional(),
};

export const orchestratorSchema = z
  .object({ ...agentFields, model: z.string().min(1), instruction: z.string().min(1) })
  .strict();

export const subagentSchema = z
  .object({
    ...agentFields,
    description: z.string().min(1),
    yaml_reference: z.string().min(1).optional(),
    a2a_agent_url: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((agent, ctx) => {
    if (agent.yaml_reference && agent.a2a_agent_url) {
      ctx.addIssue({ code: 'custom', path: ['yaml_reference'], message: 'set yaml_reference or a2a_agent_url, not both' });
    }
    if (!agent.instruction && !agent.yaml_reference && !agent.a2a_agent_url) {
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
  })
  .strict();

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
    variables: z.record(z.string(), variableValueSchema).optional(),
    guards: z.array(z.string().min(1)).optional(),
    max_steps: z.number().int().positive().optional(),
    dispatch: dispatchSchema.optional(),
    orchestrator: orchestratorSchema,
    subagents: z.array(subagentSchema),
  })
  .strict();

export type ThinkingConfig = z.infer<typeof thinkingConfigSchema>;
export type GenerateContentConfig = z.infer<typeof generateContentConfigSchema>;
export type ScriptStep = z.infer<typeof scriptStepSchema>;
export type OrchestratorConfig = z.infer<typeof orchestratorSchema>;
export type SubagentConfig = z.infer<typeof subagentSchema>;
export type DispatchConfig = z.infer<typeof dispatchSchema>;
export type RouteOverride = z.infer<typeof routeOverrideSchema>;
export type VariableValue = z.infer<typeof variableValueSchema>;
export type SyndicateFile = z.infer<typeof syndicateFileSchema>;
export type MemorySystem = NonNullable<SyndicateFile['memory_system']>;
