import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { scratchDir } from '../support/scratchDir.js';
import type { TurnEvent } from '../../src/core/events.js';
import { ADMIN_TOKEN, HAVE_CHROMIUM, launchBrowser, rememberForAdmin, screenshot, startStudioServer, storeEventsForAdmin, writeDocumentForAdmin, type StudioServer } from './browser.js';

// The studio as a user meets it: signed in from the console's link, chatting with the council
// while its delegation tree fills in, cancelling a turn that would never end, answering a question.

/** The server's SYNDICATE_PRICES give the scripted model a price (USD per million tokens), so costs show. */
const SCRIPTED_PRICE = { input: 1000, output: 2000 };

type StoredEvents = { events: Array<{ seq: number; event: { type: string; agent: string; delegationId?: string; inputTokens?: number; outputTokens?: number; output?: string; input?: string } }> };

async function storedEvents(sessionId: string): Promise<StoredEvents['events']> {
  const response = await fetch(`${server.url}/api/v1/sessions/${encodeURIComponent(sessionId)}/events?limit=10000`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return ((await response.json()) as StoredEvents).events;
}

let server: StudioServer;
let browser: BrowserContext;
let page: Page;

describe.skipIf(!HAVE_CHROMIUM)('the studio in a browser', () => {
  beforeAll(async () => {
    const prices = join(scratchDir('studio-prices'), 'prices.json');
    writeFileSync(prices, JSON.stringify({ providers: { scripted: { '*': SCRIPTED_PRICE } } }));
    server = await startStudioServer({ env: { SYNDICATE_PRICES: prices } });
    browser = await launchBrowser();
    page = await browser.newPage();
    // Under the test's own timeout, so a failure names the element that never showed.
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function send(syndicate: string, message: string): Promise<void> {
    await page.goto(`${server.url}/#/chat`);
    await page.getByLabel('Syndicate').selectOption(syndicate);
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it("signs in from the link's token and takes it out of the address bar", async () => {
    await page.goto(`${server.url}/#sign-in=${ADMIN_TOKEN}`);

    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(page.url()).not.toContain(ADMIN_TOKEN);
    expect(await browser.cookies()).toContainEqual(expect.objectContaining({ name: 'syndicate_session', httpOnly: true, sameSite: 'Strict' }));
    await screenshot(page, 'signed-in');
  });

  it("streams the council's answer, with both delegations completed in the tree", async () => {
    await send('council', 'Should we adopt a four-day week?');

    await page.locator('.node[data-agent="Advocate"][data-status="completed"]').waitFor();
    await page.locator('.node[data-agent="Skeptic"][data-status="completed"]').waitFor();
    await page.locator('.turn[data-status="completed"] .answer').waitFor();
    expect((await page.locator('.turn .answer').innerText()).trim()).not.toBe('');
    expect(await page.locator('.node[data-agent="Moderator"]').getAttribute('data-status')).toBe('completed');
    await screenshot(page, 'council');
  });

  it("costs each node's calls with the server's price table", async () => {
    const sessionId = (await page.locator('.chat .session-title').getAttribute('title'))!;
    const calls = (await storedEvents(sessionId)).map((row) => row.event).filter((event) => event.type === 'usage' && event.agent === 'Moderator' && event.delegationId === undefined);
    const cost = calls.reduce((sum, call) => sum + (call.inputTokens! * SCRIPTED_PRICE.input + call.outputTokens! * SCRIPTED_PRICE.output) / 1_000_000, 0);

    const figures = await page.locator('.node[data-agent="Moderator"] > details > summary .figures').innerText();

    expect(cost).toBeGreaterThan(0.01);
    expect(figures).toContain(`$${cost.toFixed(2)}`);
  });

  it('names the chat after its first message and keeps the session id in the tooltip', async () => {
    const title = page.locator('.chat .session-title');

    expect((await title.innerText()).trim()).toBe('Should we adopt a four-day week?');
    expect(await title.getAttribute('title')).toMatch(/^api:admin:/);
  });

  it('marks the syndicates a boardroom mounts as nested syndicates, and their own agents as subagents', async () => {
    await page.reload();
    await send('boardroom', 'Proposal: a two-day offsite in Porto for 8 people on a 3,000 budget.');

    await page.locator('.turn[data-status="completed"] .answer').waitFor();
    // Completed nodes are folded: their badges are read whether shown or not.
    const kindOf = (agent: string) => page.locator(`.node[data-agent="${agent}"] > details > summary .badge`).first().textContent();
    expect(await kindOf('Chair')).toBe('orchestrator');
    expect(await kindOf('Council')).toBe('nested syndicate');
    expect(await kindOf('Treasurer')).toBe('nested syndicate');
    expect(await kindOf('Advocate')).toBe('subagent');
    expect(await page.locator('.node[data-agent="Council"] .node[data-agent="Advocate"]').count()).toBe(1);
    await screenshot(page, 'boardroom');
  });

  it('picks a dropped stream up again after the last event it had, and shows the answer once', async () => {
    // The turn's stream breaks off after its first delegation starts, as a dropped connection does.
    await page.route('**/api/v1/turns', async (route) => {
      const response = await route.fetch();
      const messages = (await response.text()).split('\n\n');
      const cut = messages.findIndex((message) => message.includes('event: delegation-start'));
      await route.fulfill({ response, body: `${messages.slice(0, cut + 1).join('\n\n')}\n\n` });
    });
    const resumed: string[] = [];
    page.on('request', (sent) => void (sent.url().includes('/stream') && resumed.push(sent.headers()['last-event-id'] ?? '')));
    try {
      // A fresh chat: this one still holds the council session of the tests before.
      await page.reload();
      await send('council', 'Should we adopt a three-day weekend?');

      await page.locator('.turn[data-status="completed"] .answer').waitFor();
    } finally {
      await page.unroute('**/api/v1/turns');
    }
    const sessionId = await page.locator('.chat .session-title').getAttribute('title');
    const events = await storedEvents(sessionId!);
    const delegated = events.find((row) => row.event.type === 'delegation-start')!;
    expect(resumed).toEqual([String(delegated.seq)]);
    expect(await page.locator('.chat .node[data-agent="Advocate"][data-status="completed"]').count()).toBe(1);
    expect(await page.locator('.chat .node[data-agent="Skeptic"][data-status="completed"]').count()).toBe(1);
    const answer = events.find((row) => row.event.type === 'turn-end')!.event.output!;
    expect((await page.locator('.turn .answer').innerText()).replace(/\s+/g, ' ').trim()).toBe(answer.replace(/\s+/g, ' ').trim());
    await screenshot(page, 'reconnected');
  });

  it('cancels a turn that is still running, its tool call that never answered ended cancelled too', async () => {
    await send('waiting-room', 'Please wait');
    await page.locator('.tool[data-tool="flaky_hang"][data-status="running"]').waitFor();

    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.locator('.turn[data-status="cancelled"]').waitFor();
    expect(await page.locator('.node[data-agent="Receptionist"]').getAttribute('data-status')).toBe('cancelled');
    expect(await page.locator('.tool[data-tool="flaky_hang"]').getAttribute('data-status')).toBe('cancelled');
    await screenshot(page, 'cancelled');
  });

  it('answers an ask_user question in place, in the same session', async () => {
    await send('waiting-room', 'Plan the offsite');
    await page.locator('.question', { hasText: 'Which city should the offsite be in?' }).waitFor();

    await page.getByLabel('Your answer').fill('Lisbon');
    await page.getByRole('button', { name: 'Answer' }).click();

    await page.locator('.turn[data-status="completed"] .answer', { hasText: 'Lisbon booked.' }).waitFor();
    expect(await page.locator('.turn').count()).toBe(2);
    await screenshot(page, 'answered');
  });

  it("replays a stored session's transcript through the same tree, and forks it into a new session", async () => {
    await page.goto(`${server.url}/#/sessions`);
    await page.locator('.list li', { hasText: 'Council' }).first().click();

    await page.locator('.transcript .node[data-agent="Advocate"][data-status="completed"]').waitFor();
    await page.locator('.transcript .node[data-agent="Skeptic"][data-status="completed"]').waitFor();
    const before = await page.locator('.list li').count();
    await page.getByRole('button', { name: 'Fork after this turn' }).click();

    await expect.poll(() => page.locator('.list li').count()).toBe(before + 1);
    await page.locator('.transcript .turn[data-status="completed"]').waitFor();
    await screenshot(page, 'session');
  });

  it('continues a stored session in the chat: its transcript replayed, the next message added to it', async () => {
    const first = (await page.locator('.transcript .turn .user').first().innerText()).trim();
    await page.locator('.transcript').getByRole('link', { name: 'Continue in chat' }).click();

    await page.locator('.chat .node[data-agent="Advocate"][data-status="completed"]').waitFor();
    expect((await page.locator('.chat .session-title').innerText()).trim()).toBe(first);
    await page.getByLabel('Message').fill('And a three-day week?');
    await page.getByRole('button', { name: 'Send' }).click();

    await expect.poll(() => page.locator('.turn[data-status="completed"]').count()).toBe(2);
    const sessionId = await page.locator('.chat .session-title').getAttribute('title');
    const inputs = (await storedEvents(sessionId!)).filter((row) => row.event.type === 'turn-start').map((row) => row.event.input);
    expect(inputs).toEqual([first, 'And a three-day week?']);
    await screenshot(page, 'continued');
  });

  it("replays a transcript longer than the server's largest page of events, to its last turn", async () => {
    const event = (turnId: string, body: Record<string, unknown>) => ({ turnId, agent: 'Moderator', at: Date.now(), depth: 0, ...body }) as TurnEvent;
    // One turn of more model steps than a page holds, then one more turn.
    const steps = Array.from({ length: 10_000 }, (_step, index) => event('long-1', { type: 'message', text: `step ${index}` }));
    await storeEventsForAdmin(server, 'long-archive', 'Council', [
      event('long-1', { type: 'turn-start', syndicate: 'Council', input: 'Summarise the whole archive' }),
      ...steps,
      event('long-1', { type: 'turn-end', status: 'completed', output: 'The archive is summarised.' }),
      event('long-2', { type: 'turn-start', syndicate: 'Council', input: 'And its last entry?' }),
      event('long-2', { type: 'message', text: 'The last entry is from May.' }),
      event('long-2', { type: 'turn-end', status: 'completed', output: 'The last entry is from May.' }),
    ]);
    await page.goto(`${server.url}/#/sessions`);
    await page.getByLabel('Search sessions').fill('Summarise the whole archive');

    await page.locator('.list li', { hasText: 'Summarise the whole archive' }).click();

    await expect.poll(() => page.locator('.transcript .turn').count()).toBe(2);
    expect(await page.locator('.transcript .turn').evaluateAll((turns) => turns.map((turn) => turn.getAttribute('data-status')))).toEqual(['completed', 'completed']);
    expect(await page.locator('.transcript .turn .answer').last().innerText()).toBe('The last entry is from May.');
  });

  it('finds by its first message a session beyond the pages loaded, asking the server', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const listed = (await (await fetch(`${server.url}/api/v1/sessions?limit=200`, { headers: admin })).json()) as { sessions: Array<{ id: string; title: string | null; eventCount: number }> };
    const offsite = listed.sessions.find((session) => session.title === 'Plan the offsite')!;
    for (let copy = 0; copy < 110; copy++) {
      // Under the API's rate limit (20 a second per address), which the browser's requests share.
      await new Promise((resolve) => setTimeout(resolve, 60));
      const forked = await fetch(`${server.url}/api/v1/sessions/${encodeURIComponent(offsite.id)}/fork`, { method: 'POST', headers: admin, body: JSON.stringify({ atSeq: offsite.eventCount }) });
      expect(forked.status).toBe(201);
    }
    await page.goto(`${server.url}/#/sessions`);
    await page.reload();
    await expect.poll(() => page.locator('.list li').count()).toBe(50);
    // The first page holds only the newest forks: the sessions searched for are further down.
    expect(new Set(await page.locator('.list li strong').allInnerTexts())).toStrictEqual(new Set(['Plan the offsite']));

    await page.getByLabel('Search sessions').fill('three-day WEEKEND');

    // The chat's session of the dropped stream, and the fork continued in the chat.
    const weekend = listed.sessions.filter((session) => session.title === 'Should we adopt a three-day weekend?');
    expect(weekend.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.list li').count()).toBe(weekend.length);
    expect(await page.locator('.list li strong').allInnerTexts()).toEqual(weekend.map(() => 'Should we adopt a three-day weekend?'));
    expect(await page.getByRole('button', { name: 'Older matches' }).count()).toBe(0);
    await screenshot(page, 'sessions-search');
  }, 60_000);

  it('pages past the first hundred sessions once the search is cleared', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const total = ((await (await fetch(`${server.url}/api/v1/sessions?limit=200`, { headers: admin })).json()) as { sessions: unknown[] }).sessions.length;

    await page.getByLabel('Search sessions').fill('');

    await expect.poll(() => page.locator('.list li').count()).toBe(50);
    await page.getByRole('button', { name: 'Older sessions' }).click();
    await expect.poll(() => page.locator('.list li').count()).toBe(100);
    await page.getByRole('button', { name: 'Older sessions' }).click();
    await expect.poll(() => page.locator('.list li').count()).toBe(total);
    expect(await page.getByRole('button', { name: 'Older sessions' }).count()).toBe(0);
  });

  const legendOf = async (chart: string) => (await page.locator(`[data-chart="${chart}"] .u-legend .u-series`).allInnerTexts()).map((text) => text.trim());

  it('charts usage by day, agent and model with its cost, each chart titled once by its heading and its legend naming its series', async () => {
    await page.goto(`${server.url}/#/usage`);

    await page.locator('[data-chart="By day"] canvas').waitFor();
    await page.locator('[data-usage="agent"] td', { hasText: 'Advocate (Council)' }).waitFor();
    await page.locator('[data-usage="model"] td', { hasText: 'scripted' }).waitFor();
    for (const chart of ['By day', 'By agent', 'By model']) expect(await legendOf(chart)).toEqual(['tokens', 'cost (USD)']);
    expect(await page.getByText('By agent', { exact: true }).count()).toBe(1);
    await screenshot(page, 'usage');
  });

  it('charts no cost when every call cost $0, and says so', async () => {
    // The ledger as a server whose models are free would give it.
    await page.route('**/api/v1/usage?by=*', async (route) => {
      const usage = (await (await route.fetch()).json()) as { rows: Array<{ costUsd: number | null }>; total: { costUsd: number | null } };
      await route.fulfill({ json: { rows: usage.rows.map((row) => ({ ...row, costUsd: 0 })), total: { ...usage.total, costUsd: 0 } } });
    });
    try {
      await page.goto(`${server.url}/#/usage`);
      await page.reload();

      await page.locator('[data-chart="By agent"] canvas').waitFor();
      for (const chart of ['By day', 'By agent', 'By model']) expect(await legendOf(chart)).toEqual(['tokens']);
      expect(await page.getByText('Cost is not charted').count()).toBe(3);
      await screenshot(page, 'usage-free');
    } finally {
      await page.unroute('**/api/v1/usage?by=*');
    }
  });

  it('lists the syndicates the server loaded in the settings', async () => {
    await page.goto(`${server.url}/#/settings`);

    await page.locator('[data-syndicate="waiting-room"]').waitFor();
    expect(await page.locator('[data-syndicate="council"] td').nth(3).innerText()).toContain('ok');
  });

  it('creates an API key in the settings, shows its secret once, and revokes it', async () => {
    await page.goto(`${server.url}/#/settings`);
    await page.locator('[data-user="admin"]').waitFor();

    await page.getByLabel('New key name').fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('[data-secret] code').innerText()).trim();
    await page.locator('[data-key="laptop"]').getByRole('button', { name: 'Revoke' }).click();

    await page.locator('[data-key="laptop"]', { hasText: 'revoked' }).waitFor();
    expect(secret).not.toBe('');
    expect((await fetch(`${server.url}/api/v1/syndicates`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
  });

  it('edits a remembered fact: the edit holds, the old version is kept superseded in its chain', async () => {
    await rememberForAdmin(server, 'The user prefers a window seat.', ['seat']);
    await page.goto(`${server.url}/#/memory`);
    await page.getByLabel('Silo').selectOption('concierge');
    await page.locator('.list li', { hasText: 'window seat' }).click();

    await page.getByLabel('Fact text').fill('The user prefers an aisle seat.');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.locator('.list li', { hasText: 'aisle seat' }).filter({ hasText: 'active' }).waitFor();
    await page.locator('.list li', { hasText: 'window seat' }).filter({ hasText: 'superseded' }).waitFor();
    await page.locator('.list li', { hasText: 'aisle seat' }).click();
    await page.locator('.chain', { hasText: 'Replaced: The user prefers a window seat.' }).waitFor();
    await screenshot(page, 'memory');
  });

  it('searches the facts of a silo, the fact that holds now marked current and the one it replaced not', async () => {
    await rememberForAdmin(server, 'The user is allergic to peanuts.', ['allergy']);
    await page.goto(`${server.url}/#/memory`);
    await page.reload();
    await page.getByLabel('Silo').selectOption('concierge');

    await page.getByLabel('Search facts').fill('aisle seat');
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    await page.locator('[data-facts="found"] li', { hasText: 'aisle seat' }).first().waitFor();
    expect(await page.locator('[data-facts="found"] li', { hasText: 'aisle seat' }).getAttribute('data-current')).toBe('true');
    expect(await page.locator('[data-facts="found"] li', { hasText: 'window seat' }).getAttribute('data-current')).toBe('false');
    // The box has the width of the list it searches, its buttons beside or under it.
    const box = (await page.getByLabel('Search facts').boundingBox())!;
    const list = (await page.locator('[data-facts="found"]').boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(list.width - 1);
    await screenshot(page, 'fact-search');
  });

  it('renders a memory document, saves an edit as a new revision, shows its diff and rolls it back', async () => {
    await writeDocumentForAdmin(server, 'notes', 'trips/lisbon.md', '# Lisbon\n\nThe offsite is in **May**.\n');
    await page.goto(`${server.url}/#/memory`);
    // The page was open already (the last test): a reload lists the document written since.
    await page.reload();
    await page.getByLabel('Silo').selectOption('concierge');
    await page.locator('[data-document="notes/trips/lisbon.md"]').click();
    await page.locator('.document .markdown h1', { hasText: 'Lisbon' }).waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Document').fill('# Lisbon\n\nThe offsite is in **June**.\n');
    await page.getByRole('button', { name: 'Save revision' }).click();

    await page.locator('.document .markdown strong', { hasText: 'June' }).waitFor();
    await expect.poll(() => page.locator('.history tr').count()).toBe(2);
    await page.locator('.history tr', { hasText: 'edited in the studio' }).getByRole('button', { name: 'Diff' }).click();
    await page.locator('.diff .diff-add', { hasText: 'June' }).waitFor();
    await screenshot(page, 'document');

    await page.locator('.history tr', { hasText: 'seeded by the test' }).getByRole('button', { name: 'Roll back to this' }).click();
    await page.locator('.document .markdown strong', { hasText: 'May' }).waitFor();
    await expect.poll(() => page.locator('.history tr').count()).toBe(3);
  });

  it('draws the link graph of the documents, a link to a missing document marked missing', async () => {
    await writeDocumentForAdmin(server, 'notes', 'trips/porto.md', '# Porto\n\nAfter [Lisbon](lisbon.md), see [[notes/trips/faro]].\n');
    await page.goto(`${server.url}/#/memory`);
    await page.reload();
    await page.getByLabel('Silo').selectOption('concierge');

    await page.locator('[data-link="notes/trips/porto.md -> notes/trips/lisbon.md"]').waitFor();
    expect(await page.locator('[data-link="notes/trips/porto.md -> notes/trips/lisbon.md"]').innerText()).not.toContain('missing');
    await page.locator('[data-link="notes/trips/porto.md -> notes/trips/faro.md"]', { hasText: 'missing' }).waitFor();
    expect(await page.locator('.link-graph svg g[data-node]').count()).toBe(3);
    await screenshot(page, 'link-graph');
  });

  it("shows an invalid edit of a syndicate file with its file:line:col in the settings and the chat, while its previous version still answers", async () => {
    const original = readFileSync(server.waitingRoom, 'utf8');
    writeFileSync(server.waitingRoom, original.replace('  tools: [ask_user]', '  tools: [ask_user]\n  colour: "blue"'));
    try {
      await page.goto(`${server.url}/#/settings`);
      // The file reloads a moment after it changes: the page lists the syndicates again on each visit.
      await expect.poll(async () => {
        await page.goto(`${server.url}/#/usage`);
        await page.goto(`${server.url}/#/settings`);
        return page.locator('[data-syndicate="waiting-room"] .load-error').count();
      }).toBe(1);
      const line = original.split('\n').indexOf('  tools: [ask_user]') + 2;
      expect(await page.locator('[data-syndicate="waiting-room"] .load-error').innerText()).toContain(`waiting-room.yaml:${line}:3`);
      expect(await page.locator('[data-syndicate="waiting-room"]').innerText()).toContain('The previous version still runs');
      await screenshot(page, 'load-error');

      await send('waiting-room', 'Plan the offsite');

      await page.locator('[data-load-error="waiting-room"]', { hasText: `waiting-room.yaml:${line}:3` }).waitFor();
      await page.locator('.question', { hasText: 'Which city should the offsite be in?' }).waitFor();
    } finally {
      writeFileSync(server.waitingRoom, original);
    }
    await expect.poll(async () => {
      await page.goto(`${server.url}/#/usage`);
      await page.goto(`${server.url}/#/settings`);
      return page.locator('[data-syndicate="waiting-room"] .load-error').count();
    }).toBe(0);
  });

  it('says a used or wrong sign-in link is not valid, and offers the form', async () => {
    const fresh = await browser.newPage();
    await fresh.goto(`${server.url}/#sign-in=not-a-token-this-server-gave-out`);

    await fresh.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    expect(await fresh.getByLabel('Sign-in token or API key').isVisible()).toBe(true);
    await fresh.close();
  });
});
