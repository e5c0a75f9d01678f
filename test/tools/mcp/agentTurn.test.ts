import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../support/scratchDir.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../../src/config/loadSyndicate.js';
import { compileSyndicate, type CompiledSyndicate } from '../../../src/runtime/compileSyndicate.js';
import type { TurnEvent, TurnEventOf, TurnEventType } from '../../../src/core/events.js';
import { runTurn } from '../../../src/runtime/runTurn.js';
import { EVERYTHING, LOOPBACK_ALLOWED, startEverythingHttp, type RunningServer } from './servers.js';

// An agent in a YAML syndicate, on the scripted model, calling MCP tools end to end.

function writeSyndicate(yaml: string): string {
  const file = join(scratchDir('mcp'), 'librarian.yaml');
  writeFileSync(file, yaml);
  return file;
}

function compileFile(file: string): CompiledSyndicate {
  return compileSyndicate(loadSyndicate(file), { mcp: { policy: LOOPBACK_ALLOWED, connectTimeoutMs: 20_000 } });
}

async function turn(syndicate: CompiledSyndicate, input: string): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of runTurn(syndicate, { input })) events.push(event);
  return events;
}

function ofType<T extends TurnEventType>(events: readonly TurnEvent[], type: T): Array<TurnEventOf<T>> {
  return events.filter((event): event is TurnEventOf<T> => event.type === type);
}

const compiled: CompiledSyndicate[] = [];
afterAll(async () => {
  await Promise.all(compiled.map((syndicate) => syndicate.close()));
});

describe('an agent with MCP tools in a YAML syndicate', () => {
  let streamable: RunningServer;
  beforeAll(async () => {
    streamable = await startEverythingHttp('streamableHttp');
  });
  afterAll(async () => {
    await streamable?.stop();
  });

  it('calls a tool of an mcp_servers stdio server and answers from its result', async () => {
    const file = writeSyndicate(`
syndicate_name: Echoes
orchestrator:
  name: Echoer
  model: scripted
  instruction: Echo what you are given.
  mcp_servers:
    - name: everything
      transport: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(EVERYTHING)}, stdio]
  script:
    - match: "echo"
      tool_calls:
        - tool: everything_echo
          args: { message: "from yaml" }
    - match: "Echo: from yaml"
      reply: "The server said: Echo: from yaml"
subagents: []
`);
    const syndicate = compileFile(file);
    compiled.push(syndicate);

    const events = await turn(syndicate, 'please echo');

    expect(ofType(events, 'warning')).toEqual([]);
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ tool: 'everything_echo', isError: false, output: { text: 'Echo: from yaml' } });
    expect(ofType(events, 'turn-end')[0]).toMatchObject({ status: 'completed', output: 'The server said: Echo: from yaml' });
  });

  it('calls a tool of an mcp_server_url server over Streamable HTTP', async () => {
    const file = writeSyndicate(`
syndicate_name: Adder
orchestrator:
  name: Adder
  model: scripted
  instruction: Add numbers with the server.
  mcp_server_url: ${streamable.url}
  script:
    - match: "add"
      tool_calls:
        - tool: mcp-servers_everything_get-sum
          args: { a: 2, b: 3 }
    - regex: "is 5"
      reply: "2 + 3 = 5"
subagents: []
`);
    const syndicate = compileFile(file);
    compiled.push(syndicate);

    const events = await turn(syndicate, 'add 2 and 3');

    expect(ofType(events, 'tool-result')[0]).toMatchObject({ tool: 'mcp-servers_everything_get-sum', isError: false });
    expect(ofType(events, 'turn-end')[0]).toMatchObject({ status: 'completed', output: '2 + 3 = 5' });
  });

  it('runs the turn without a server that is down and emits a warning naming it', async () => {
    const file = writeSyndicate(`
syndicate_name: Stranded
orchestrator:
  name: Clerk
  model: scripted
  instruction: Answer.
  tools: [calculator]
  mcp_servers:
    - name: gone
      transport: stdio
      command: ${JSON.stringify(process.execPath)}
      args: ["-e", "process.exit(1)"]
  script:
    - reply: "I answered without the catalogue."
subagents: []
`);
    const syndicate = compileFile(file);
    compiled.push(syndicate);

    const events = await turn(syndicate, 'hello');

    expect(ofType(events, 'warning').map((event) => event.message)).toEqual([expect.stringMatching(/^MCP server 'gone' is unavailable, so its tools are left out of this turn/)]);
    expect(ofType(events, 'turn-end')[0]).toMatchObject({ status: 'completed', output: 'I answered without the catalogue.' });
  });
});
