import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { serveCatalogDemo } from '../../src/mcp/demo/demoServer.js';
import type { McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { connectHttp, textOf } from './fixtures.js';

describe('the library-catalog demo MCP server', () => {
  let dataDir: string;
  let server: McpHttpServer | undefined;
  let client: Client | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'syndicate-mcp-demo-'));
  });

  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Client> {
    await client?.close();
    await server?.close();
    server = await serveCatalogDemo({ port: 0, dataDir, version: '0.0.0-test' });
    client = await connectHttp(server.url, 'auto');
    return client;
  }

  it('offers two read tools and two write tools', async () => {
    const mcp = await start();

    const { tools } = await mcp.listTools();

    expect(tools.map((tool) => tool.name)).toEqual(['search_catalog', 'read_scroll', 'borrow_scroll', 'annotate_scroll']);
  });

  it('finds scrolls by words in their subjects', async () => {
    const mcp = await start();

    const result = await mcp.callTool({ name: 'search_catalog', arguments: { query: 'tides' } });

    expect(result.structuredContent).toEqual({ scrolls: [expect.objectContaining({ id: 'S-101', available: true })] });
  });

  it('keeps a loan and a note across a restart', async () => {
    const first = await start();
    await first.callTool({ name: 'borrow_scroll', arguments: { id: 'S-101', borrower: 'Ada' } });
    await first.callTool({ name: 'annotate_scroll', arguments: { id: 'S-101', note: 'Check the spring tides table.', by: 'Ada' } });

    const second = await start();
    const result = await second.callTool({ name: 'read_scroll', arguments: { id: 'S-101' } });

    expect(result.structuredContent).toMatchObject({ id: 'S-101', borrowedBy: 'Ada', annotations: [{ by: 'Ada', note: 'Check the spring tides table.' }] });
  });

  it('refuses to lend a scroll that is already borrowed, as a tool error', async () => {
    const mcp = await start();
    await mcp.callTool({ name: 'borrow_scroll', arguments: { id: 'S-102', borrower: 'Ada' } });

    const result = await mcp.callTool({ name: 'borrow_scroll', arguments: { id: 'S-102', borrower: 'Grace' } });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('S-102 is already borrowed by Ada');
  });
});
