import { z } from 'zod';
import { defineTool } from '../../core/tool.js';

const inputSchema = z.object({
  timeZone: z.string().optional().describe('IANA time zone such as "Europe/Paris". Default: UTC.'),
});

export const currentTime = defineTool({
  name: 'current_time',
  description: 'Returns the current date and time, in UTC or a named time zone.',
  inputSchema,
  execute: ({ timeZone = 'UTC' }) => {
    const now = new Date();
    let local: string;
    try {
      local = now.toLocaleString('en-CA', { timeZone, hour12: false });
    } catch {
      throw new Error(`unknown time zone '${timeZone}': use an IANA name such as "America/New_York"`);
    }
    return { iso: now.toISOString(), timeZone, local };
  },
});
