import { z } from 'zod';
import { cronSchema, firingsWithinAnHour, timeZoneSchema } from './cron.js';
import { parseDuration, DURATION_FORMAT } from './duration.js';
import { isRecord, type Problem } from './problem.js';
import { MEMORY_TOOLS } from './memoryTools.js';

// `dreams:` in a syndicate file: an unattended reflection over the sessions since the last dream,
// per user silo (scheduler/dreams runs it). Checked here, with the rest of the file.

// tools/builtin/askUser.ts names it; config sits below tools/, so the name is written out.
const ASK_USER_TOOL = 'ask_user';

/**
 * At least an hour apart: a dream reads every session since the last one, so a tighter loop only
 * repeats itself at the price of a model call per silo each time. An hour, so a cron dream meets it
 * exactly when it fires at most once an hour (firingsWithinAnHour).
 */
export const MIN_DREAM_INTERVAL_MS = 3_600_000;

const DREAM_CRON_EXAMPLE = '"0 3 * * *" for 03:00 every day';

/** `HH:MM:SS` of a firing, in UTC, as the too-frequent cron's error quotes it. */
const timeOfDay = (at: Date): string => at.toISOString().slice(11, 19);

const dreamCronSchema = cronSchema(DREAM_CRON_EXAMPLE).superRefine((pattern, ctx) => {
  const pair = firingsWithinAnHour(pattern);
  if (!pair) return;
  ctx.addIssue({
    code: 'custom',
    message:
      `"${pattern}" fires more than once an hour (at ${timeOfDay(pair[0])} and ${timeOfDay(pair[1])} UTC, for one), ` +
      'and dreams are at least 1h apart since each reflects on every session since the last one: ' +
      `give one value for the minute (and the second, with six fields), e.g. ${DREAM_CRON_EXAMPLE}`,
  });
});

export const dreamsSchema = z
  .object({
    every: z
      .union([z.string(), z.number()])
      .transform((value, ctx) => {
        const ms = parseDuration(value);
        if (ms === undefined) ctx.addIssue({ code: 'custom', message: `must be a duration: ${DURATION_FORMAT} (e.g. 24h)` });
        else if (ms < MIN_DREAM_INTERVAL_MS) ctx.addIssue({ code: 'custom', message: 'must be at least 1h: a dream reflects on every session since the last one' });
        return ms ?? 0;
      })
      .optional(),
    cron: dreamCronSchema.optional(),
    timezone: timeZoneSchema.optional(),
    /** The agent that dreams: its model and instruction, with the restricted tool set below. */
    agent: z.string().min(1),
    instruction: z.string().min(1).optional(),
    /** Tools beyond the memory tools: a dream may write nothing else unless listed here. */
    tools: z.array(z.string().min(1)).optional(),
  })
  .strict()
  .superRefine((dreams, ctx) => {
    if ((dreams.every === undefined) === (dreams.cron === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'set `every` (e.g. 24h) or `cron` (e.g. "0 3 * * *"), one of them' });
    }
    if (dreams.timezone !== undefined && dreams.cron === undefined) ctx.addIssue({ code: 'custom', path: ['timezone'], message: 'only used with `cron`: `every` counts from the last dream' });
  });

export type DreamsConfig = z.infer<typeof dreamsSchema>;

/** What the schema cannot check: the agent exists, the file keeps long-term memory, the tools are allowed. */
export function dreamProblems(data: unknown, knownTools: readonly string[]): Problem[] {
  if (!isRecord(data) || !isRecord(data['dreams'])) return [];
  const dreams = data['dreams'];
  const problems: Problem[] = [];
  if (data['memory_system'] !== 'long-term') {
    problems.push({ path: ['dreams'], message: 'dreams write a journal and facts into long-term memory: set memory_system: long-term' });
  }
  const subagents = Array.isArray(data['subagents']) ? (data['subagents'] as unknown[]) : [];
  const names = [data['orchestrator'], ...subagents].flatMap((entry) => (isRecord(entry) && typeof entry['name'] === 'string' ? [entry['name']] : []));
  const agent = dreams['agent'];
  if (typeof agent === 'string' && !names.includes(agent)) {
    problems.push({ path: ['dreams', 'agent'], message: `no agent is named '${agent}': name one of ${names.join(', ') || 'the agents in this file'}` });
  }
  const tools = dreams['tools'];
  if (Array.isArray(tools)) {
    tools.forEach((tool: unknown, index) => {
      if (typeof tool !== 'string') return;
      if (tool === ASK_USER_TOOL) problems.push({ path: ['dreams', 'tools', index], message: 'a dream runs with nobody there to answer: remove ask_user' });
      else if (!knownTools.includes(tool) && !MEMORY_TOOLS.includes(tool)) problems.push({ path: ['dreams', 'tools', index], message: `unknown tool '${tool}'` });
    });
  }
  return problems;
}
