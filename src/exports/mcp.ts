// syndicate/mcp: the MCP server face (each syndicate as an `ask_<name>` tool, over stdio or
// Streamable HTTP) and MCP toolsets (an MCP server's tools as an agent's tools).

export { syndicateServerFactory, syndicateServerTools, type SyndicateServerOptions } from '../mcp/syndicateServer.js';
export type { McpCaller, ServedSyndicate } from '../mcp/askTool.js';
export { serveMcpHttp, type McpHttpOptions, type McpHttpServer } from '../mcp/http/serveHttp.js';
export { createAgentMcpTools, type AgentMcpTools, type McpOfferedTool, type McpTurnTools } from '../tools/mcp/agentMcpTools.js';
export { mcpSettings, type McpClientSettings } from '../tools/mcp/settings.js';
export type { McpServerSpec } from '../tools/mcp/serverSpec.js';
export { McpToolError, type McpToolOutput } from '../tools/mcp/callResult.js';
