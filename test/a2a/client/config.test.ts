import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from '../../config/fixtures.js';

afterEach(removeFixtures);

function fileWith(subagent: string[]): string {
  const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ subagents: subagent }) });
  return path.join(dir, 'syndicate.yaml');
}

describe('a remote A2A subagent in a syndicate file', () => {
  it('loads a2a_url and a2a_auth_env as a remote agent, without a description of its own', () => {
    const file = fileWith(['  - name: Weather', '    a2a_url: https://weather.example.com/.well-known/agent-card.json', '    a2a_auth_env: WEATHER_TOKEN']);

    const weather = loadSyndicate(file).root.subagents[0];

    expect(weather).toMatchObject({ name: 'Weather', description: '', remote: { cardUrl: 'https://weather.example.com/.well-known/agent-card.json', authEnv: 'WEATHER_TOKEN' } });
  });

  it("accepts melchizedek-agents' a2a_agent_url as another name for a2a_url", () => {
    const file = fileWith(['  - name: Weather', '    description: Forecasts.', '    a2a_agent_url: https://weather.example.com']);

    expect(loadSyndicate(file).root.subagents[0]?.remote).toEqual({ cardUrl: 'https://weather.example.com', authEnv: undefined });
  });

  it('refuses a URL that is not http(s)', () => {
    const issues = issuesOf(fileWith(['  - name: Weather', '    a2a_url: ftp://weather.example.com/card.json']));

    expect(issues).toMatchObject([{ path: 'subagents[0].a2a_url', message: expect.stringContaining('must be an http(s) URL') }]);
  });

  it('refuses an a2a_auth_env that cannot name an environment variable', () => {
    const issues = issuesOf(fileWith(['  - name: Weather', '    a2a_url: https://weather.example.com', '    a2a_auth_env: "Bearer abc"']));

    expect(issues).toMatchObject([{ path: 'subagents[0].a2a_auth_env', message: 'must be the name of an environment variable' }]);
  });

  it('refuses a2a_auth_env on a subagent that is not remote', () => {
    const issues = issuesOf(fileWith(['  - name: Helper', '    description: Helps.', '    instruction: Help.', '    a2a_auth_env: TOKEN']));

    expect(issues).toMatchObject([{ path: 'subagents[0].a2a_auth_env', message: expect.stringContaining('only used with a2a_url') }]);
  });

  it('refuses fields the remote agent decides for itself, such as its model', () => {
    const issues = issuesOf(fileWith(['  - name: Weather', '    a2a_url: https://weather.example.com', '    model: scripted']));

    expect(issues).toMatchObject([{ path: 'subagents[0].model', message: expect.stringContaining('not used with a2a_url') }]);
  });

  it('refuses a subagent that is both remote and mounted', () => {
    const issues = issuesOf(fileWith(['  - name: Weather', '    description: Forecasts.', '    a2a_url: https://weather.example.com', '    yaml_reference: other.yaml']));

    expect(issues).toContainEqual(expect.objectContaining({ path: 'subagents[0].yaml_reference', message: 'set yaml_reference or a2a_url, not both' }));
  });

  it('still requires a description on a local subagent', () => {
    const issues = issuesOf(fileWith(['  - name: Helper', '    instruction: Help.']));

    expect(issues).toMatchObject([{ path: 'subagents[0].description', message: 'required' }]);
  });
});
