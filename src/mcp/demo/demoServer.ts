import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import { DEFAULT_HOST } from '../http/listenAddress.js';
import { serveMcpHttp, type McpHttpServer } from '../http/serveHttp.js';
import { registerTool } from '../toolAdapter.js';
import { openCatalog } from './catalog.js';
import { catalogTools } from './catalogTools.js';

// `syndicate mcp-demo`: the library catalog served over Streamable HTTP on loopback. Its
// serverInfo name is what clients prefix its tools with (library_search_catalog, ...).

const DEMO_SERVER_NAME = 'library';

export interface CatalogDemoOptions {
  port: number;
  /** Directory of the catalog's state file. */
  dataDir: string;
  version: string;
}

export function catalogFile(dataDir: string): string {
  return join(dataDir, 'catalog.json');
}

export function serveCatalogDemo(options: CatalogDemoOptions): Promise<McpHttpServer> {
  const tools = catalogTools(openCatalog(catalogFile(options.dataDir)));
  const factory = (): McpServer => {
    const server = new McpServer({ name: DEMO_SERVER_NAME, version: options.version }, { capabilities: { tools: {} } });
    for (const tool of tools) registerTool(server, tool);
    return server;
  };
  return serveMcpHttp(factory, { host: DEFAULT_HOST, port: options.port });
}
