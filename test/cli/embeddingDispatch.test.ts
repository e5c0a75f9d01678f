import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, runCli, tempDir } from './cli.js';

// `syndicate run` on a plan-dispatch syndicate with `classifier: embedding`, offline: the built-in
// local embedder picks the route, and no model is asked to classify.

const home = tempDir('embedding-dispatch');
let file: string;

beforeAll(() => {
  const triage = readFileSync(join(EXAMPLES_DIR, 'triage.yaml'), 'utf8');
  file = join(home.path, 'triage.yaml');
  writeFileSync(file, triage.replace('default_route: "General"', 'default_route: "General"\n  classifier: embedding'));
});
afterAll(home.remove);

describe('syndicate run with dispatch.classifier: embedding', () => {
  it('prints the route the embedding router took, with its similarity, and the specialist answers', async () => {
    const result = await runCli(['run', file, 'I get error 500 every time I try to log in after installing the update.', '--offline'], { home: home.path });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Routed to Technical — closest to Technical's description \(similarity 0\.\d\d\)$/m);
    expect(result.stdout).toContain('  Technical:\n  [Technical] On "I get error 500');
  }, 60_000);

  it('asks no model to classify: the only model call is the specialist answering', async () => {
    const result = await runCli(['run', file, 'I get error 500 every time I try to log in after installing the update.', '--offline', '--json'], { home: home.path });

    const events = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; agent: string; route?: string; source?: string });
    expect(result.code).toBe(0);
    expect(events.filter((event) => event.type === 'route')).toMatchObject([{ agent: 'Triage', route: 'Technical', source: 'classifier' }]);
    expect(events.filter((event) => event.type === 'usage').map((event) => event.agent)).toEqual(['Technical']);
  }, 60_000);

  it('prints the fallback to default_route, with the best similarity, for a message close to no route', async () => {
    const result = await runCli(['run', file, 'Penguins huddle together to survive the Antarctic winter.', '--offline'], { home: home.path });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Routed to General — no route is close enough \(best: \w+ at -?0\.\d\d, minimum 0\.15\); using the default route$/m);
  }, 60_000);
});
