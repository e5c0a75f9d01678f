import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from '../../config/fixtures.js';

afterEach(removeFixtures);

function fileWith(orchestratorLines: string[]): string {
  const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ orchestrator: orchestratorLines }) });
  return path.join(dir, 'syndicate.yaml');
}

describe('mcp_servers in a syndicate file', () => {
  it('loads stdio, http and sse servers into the agent definition', () => {
    const file = fileWith([
      '  mcp_servers:',
      '    - { name: files, transport: stdio, command: npx, args: [-y, files-server], env: { ROOT: /srv }, inherit_env: [GITHUB_TOKEN] }',
      '    - { name: search, transport: http, url: "https://search.example.com/mcp", headers_env: { Authorization: SEARCH_AUTH } }',
      '    - { name: legacy, transport: sse, url: "https://old.example.com/sse" }',
    ]);

    expect(loadSyndicate(file).root.mcpServers).toEqual([
      { name: 'files', transport: 'stdio', command: 'npx', args: ['-y', 'files-server'], env: { ROOT: '/srv' }, inherit_env: ['GITHUB_TOKEN'] },
      { name: 'search', transport: 'http', url: 'https://search.example.com/mcp', headers_env: { Authorization: 'SEARCH_AUTH' } },
      { name: 'legacy', transport: 'sse', url: 'https://old.example.com/sse' },
    ]);
  });

  it('refuses an unknown transport with its line and the transports there are', () => {
    const issues = issuesOf(fileWith(['  mcp_servers:', '    - name: files', '      transport: websocket', '      url: "wss://x.example.com"']));

    expect(issues).toMatchObject([{ path: 'orchestrator.mcp_servers[0].transport', message: expect.stringMatching(/'stdio'.*'http'.*'sse'/) }]);
    expect(issues[0]?.line).toBeGreaterThan(0);
  });

  it('refuses a header value written into the file: headers_env names a variable', () => {
    const issues = issuesOf(fileWith(['  mcp_servers:', '    - name: search', '      transport: http', '      url: "https://search.example.com/mcp"', '      headers_env: { Authorization: "Bearer abc123" }']));

    expect(issues).toMatchObject([{ path: 'orchestrator.mcp_servers[0].headers_env.Authorization', message: 'must be the name of an environment variable' }]);
  });

  it('refuses two servers of one agent with the same name', () => {
    const issues = issuesOf(fileWith(['  mcp_servers:', '    - { name: files, transport: stdio, command: a }', '    - { name: files, transport: stdio, command: b }']));

    expect(issues).toMatchObject([{ path: 'orchestrator.mcp_servers[1].name', message: expect.stringContaining("already named 'files'") }]);
  });

  it('no longer warns that mcp_server_url is not connected', () => {
    const definition = loadSyndicate(fileWith(['  mcp_server_url: http://localhost:8000/mcp']));

    expect(definition.warnings).toEqual([]);
    expect(definition.root.mcpServerUrl).toBe('http://localhost:8000/mcp');
  });
});
