import { join, resolve } from 'node:path';
import { catalogFile, serveCatalogDemo } from '../mcp/demo/demoServer.js';
import { defaultDataDir } from '../store/location.js';
import { ExitCode } from './exitCodes.js';
import { stopped } from './stopped.js';
import type { McpDemoOptions } from './options.js';
import { UsageError } from './usageError.js';

// `syndicate mcp-demo`: the library-catalog MCP server that examples/librarian.yaml talks to.

function portOf(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new UsageError(`--port '${text}' is not a port: use a number from 0 to 65535`);
  return port;
}

export async function mcpDemoCommand(options: McpDemoOptions, version: string): Promise<number> {
  const port = portOf(options.port);
  const dataDir = options.data === undefined ? join(defaultDataDir(process.env), 'mcp-demo') : resolve(options.data);
  const server = await serveCatalogDemo({ port, dataDir, version });
  process.stdout.write(
    `Library catalog MCP server at ${server.url}\nTools: search_catalog, read_scroll, borrow_scroll, annotate_scroll. State: ${catalogFile(dataDir)}\nPress Ctrl-C to stop.\n`,
  );
  await stopped(false);
  await server.close();
  return ExitCode.ok;
}
