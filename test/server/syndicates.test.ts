import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './serverFixture.js';

// The syndicates API over real HTTP, and the registry's reloading of edited files.

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

/** Polls (the watcher is asynchronous) until `check` passes; never on wall-clock assertions. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (check(value) || attempt > 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('GET /syndicates', () => {
  it('lists every syndicate file served, with its agents and status', async () => {
    const response = await t.api('/syndicates');
    expect(response.status).toBe(200);
    const { syndicates } = (await response.json()) as { syndicates: Array<{ id: string; status: string; agents: string[]; error: unknown }> };
    expect(syndicates.map((s) => s.id).sort()).toStrictEqual(['council', 'support-triage']);
    const council = syndicates.find((s) => s.id === 'council')!;
    expect(council).toMatchObject({ status: 'ok', error: null });
    expect(council.agents).toStrictEqual(expect.arrayContaining(['Moderator', 'Advocate', 'Skeptic']));
  });

  it('refuses a request without credentials with a 401 problem', async () => {
    const response = await fetch(`${t.server.url}/api/v1/syndicates`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('GET /syndicates/:id', () => {
  it("describes the agents' models, tools and subagents", async () => {
    const body = (await (await t.api('/syndicates/council')).json()) as { agents: Array<{ name: string; model: string; subagents: string[] }>; routes: unknown[] };
    const moderator = body.agents.find((agent) => agent.name === 'Moderator')!;
    expect(moderator.subagents).toStrictEqual(['Advocate', 'Skeptic']);
    // --offline: every agent on the scripted model.
    expect(moderator.model).toBe('scripted');
    expect(body.routes).toStrictEqual([]);
  });

  it('lists the routes of a dispatching syndicate', async () => {
    const body = (await (await t.api('/syndicates/support-triage')).json()) as { routes: Array<{ name: string }> };
    expect(body.routes.length).toBeGreaterThan(0);
  });

  it('answers an unknown id with a 404 naming the known ones', async () => {
    const response = await t.api('/syndicates/nope');
    expect(response.status).toBe(404);
    const body = (await response.json()) as { detail: string };
    expect(body.detail).toContain('council');
    expect(body.detail).toContain('support-triage');
  });
});

describe('POST /syndicates/validate', () => {
  it('accepts a valid file', async () => {
    const yaml = readFileSync(join(t.folder, 'council.yaml'), 'utf8');
    const response = await t.api('/syndicates/validate', { method: 'POST', body: JSON.stringify({ yaml }) });
    expect(await response.json()).toStrictEqual({ valid: true, issues: [] });
  });

  it('lists the issues of an invalid file with their line and column', async () => {
    const yaml = 'syndicate_name: x\norchestrator:\n  name: A\n  model: 42\n';
    const body = (await (await t.api('/syndicates/validate', { method: 'POST', body: JSON.stringify({ yaml }) })).json()) as { valid: boolean; issues: Array<{ line: number; column: number }> };
    expect(body.valid).toBe(false);
    expect(body.issues.length).toBeGreaterThan(0);
    expect(body.issues[0]!.line).toBeGreaterThan(0);
  });

  it('names the field at fault when the body lacks yaml', async () => {
    const response = await t.api('/syndicates/validate', { method: 'POST', body: JSON.stringify({}) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Array<{ pointer: string }> };
    expect(body.errors[0]!.pointer).toBe('#/body/yaml');
  });
});

describe('reloading', () => {
  it('serves a syndicate file changed on disk on the next request', async () => {
    const file = join(t.folder, 'council.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('Stress-tests a claim or plan', 'Weighs a claim'));
    const body = await eventually(
      async () => (await (await t.api('/syndicates/council')).json()) as { description: string },
      (value) => value.description.startsWith('Weighs a claim'),
    );
    expect(body.description).toMatch(/^Weighs a claim/);
    writeFileSync(file, original);
  });

  it('keeps the previous version after an invalid edit and shows the error with line and column, until fixed', async () => {
    const file = join(t.folder, 'triage.yaml');
    const original = readFileSync(file, 'utf8');
    const agentsBefore = ((await (await t.api('/syndicates/support-triage')).json()) as { agents: unknown[] }).agents;
    writeFileSync(file, original.replace(/^orchestrator:/m, 'orchestrator:\n  bogus_field: 1'));
    type Detail = { status: string; error: { file: string; line: number | null; column: number | null } | null; agents: unknown[] };
    const broken = await eventually(async () => (await (await t.api('/syndicates/support-triage')).json()) as Detail, (value) => value.status === 'error');
    expect(broken.status).toBe('error');
    expect(broken.error!.file).toContain('triage.yaml');
    expect(broken.error!.line).toBeGreaterThan(0);
    expect(broken.error!.column).toBeGreaterThan(0);
    expect(broken.agents).toStrictEqual(agentsBefore);

    writeFileSync(file, original);
    const fixed = await eventually(async () => (await (await t.api('/syndicates/support-triage')).json()) as Detail, (value) => value.status === 'ok');
    expect(fixed.error).toBeNull();
  });
});
