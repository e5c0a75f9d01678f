import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli, tempDir } from './cli.js';

// `syndicate chat` runs background jobs end to end: the piece runs in the chat's process and the
// report turn plays in the chat's session once the person's turn has ended.

const home = tempDir('chat-jobs');
afterAll(() => home.remove());

const SYNDICATE = `
syndicate_name: desk
memory_system: session-only
orchestrator:
  name: Chair
  model: scripted
  description: Runs the desk.
  instruction: Hand long work to the background.
  tools: [parallel_subtasks, list_background_jobs]
  script:
    - match: "please"
      tool_calls:
        - tool: parallel_subtasks
          args: { tasks: [{ agent: Researcher, request: "find the numbers" }, { agent: Writer, request: "draft the memo" }] }
    - match: '"job_id"'
      reply: "Started the job; its report follows."
    - match: "[Background job"
      reply: "The job reported back."
      repeat: true
subagents:
  - name: Researcher
    model: scripted
    description: Finds things.
    instruction: Find things.
  - name: Writer
    model: scripted
    description: Writes things.
    instruction: Write things.
`;

describe('syndicate chat with background jobs', () => {
  it('plays one report turn in the chat session after the turn that started the job', async () => {
    const file = join(home.path, 'desk.yaml');
    const db = join(home.path, 'desk.db');
    writeFileSync(file, SYNDICATE);

    const result = await runCli(['chat', file, '--db', db, '--new-session', 'desk-1'], { home: home.path, input: 'please research\n' });

    expect(result.code).toBe(0);
    const started = result.stdout.indexOf('Started the job; its report follows.');
    const reported = result.stdout.indexOf('a background job has reported');
    expect(started).toBeGreaterThan(-1);
    expect(reported).toBeGreaterThan(started);
    expect(result.stdout.indexOf('The job reported back.')).toBeGreaterThan(reported);
    const store = openSqliteStore(db);
    try {
      const [job] = await store.backgroundJobs.list({ originSessionId: 'desk-1', limit: 10 });
      expect(job?.status).toBe('reported');
      expect(await store.backgroundJobs.undelivered()).toEqual([]);
      const inputs = (await store.readEvents('desk-1')).flatMap(({ event }) => (event.type === 'turn-start' ? [event.input] : []));
      expect(inputs).toHaveLength(2);
      expect(inputs[1]).toMatch(/^\[Background job job-.* has ended: 2 of 2 pieces answered\.\]/);
      expect(inputs[1]).toContain('[Researcher] On "find the numbers"');
    } finally {
      await store.close();
    }
  });
});
