import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/loadSyndicate.js';
import { serveCatalogDemo } from '../../src/mcp/demo/demoServer.js';
import type { McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { compileSyndicate } from '../../src/runtime/compileSyndicate.js';
import type { TurnEvent } from '../../src/core/events.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import { connectHttp } from './fixtures.js';

// examples/librarian.yaml offline: an agent on the scripted model changes the demo catalog's
// state through the MCP protocol (the runtime's MCP client talking to `syndicate mcp-demo`).

const EXAMPLE = new URL('../../examples/librarian.yaml', import.meta.url);
const EXAMPLE_URL = 'http://127.0.0.1:8765/mcp';

describe('the librarian example', () => {
  let dir: string;
  let server: McpHttpServer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'syndicate-librarian-'));
    server = await serveCatalogDemo({ port: 0, dataDir: join(dir, 'data'), version: '0.0.0-test' });
  });

  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('borrows and annotates a scroll in the catalog through the MCP server', async () => {
    const example = readFileSync(EXAMPLE, 'utf8');
    expect(example).toContain(EXAMPLE_URL);
    const file = join(dir, 'librarian.yaml');
    writeFileSync(file, example.replace(EXAMPLE_URL, server.url));
    // The demo listens on loopback, which the SSRF guard opens only when told to.
    const librarian = compileSyndicate(loadSyndicate(file), { offline: true, env: { ALLOW_PRIVATE_MCP: 'true' } });

    const events: TurnEvent[] = [];
    try {
      for await (const event of runTurn(librarian, { input: 'Find a scroll about tides and borrow it for Ada' })) events.push(event);
    } finally {
      await librarian.close();
    }

    expect(events.at(-1)).toMatchObject({ type: 'turn-end', status: 'completed', output: "I lent 'On the Tides of the Inner Sea' (S-101) to Ada and noted the loan in its margin." });
    const client = await connectHttp(server.url, 'auto');
    const scroll = await client.callTool({ name: 'read_scroll', arguments: { id: 'S-101' } });
    await client.close();
    expect(scroll.structuredContent).toMatchObject({ borrowedBy: 'Ada', annotations: [{ by: 'librarian', note: 'Lent to Ada.' }] });
  });
});
