import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent, TurnEventOf } from '../../src/core/events.js';
import { HAVE_CHROMIUM, launchBrowser, screenshot, signedInPage, startStudioServer, storeEventsForAdmin, type StudioServer } from './browser.js';

// How a session's last turn ended, as the studio shows it: a session whose turn the server's
// shutdown cancelled is marked interrupted in the list of sessions, over its transcript, and in
// the chat that continues it; a session whose turn completed is marked quietly.

let server: StudioServer;
let browser: BrowserContext;
let page: Page;
let interrupted: string;
let completed: string;

function turn(input: string, end: Partial<TurnEventOf<'turn-end'>>): TurnEvent[] {
  const base = { turnId: 'turn-1', agent: 'Moderator', at: Date.now(), depth: 0 };
  return [
    { ...base, type: 'turn-start', syndicate: 'Council', input },
    { ...base, type: 'turn-end', status: 'completed', output: '', ...end },
  ];
}

describe.skipIf(!HAVE_CHROMIUM)("the studio's sessions, marked with how their last turn ended", () => {
  beforeAll(async () => {
    server = await startStudioServer();
    interrupted = await storeEventsForAdmin(server, 'cut-short', 'Council', turn('Draft the quarterly plan', { status: 'cancelled', error: 'the turn was cancelled: interrupted: the server shut down', interrupted: true }));
    completed = await storeEventsForAdmin(server, 'finished', 'Council', turn('Name the new meeting room', { status: 'completed', output: 'The Loft.' }));
    browser = await launchBrowser();
    page = await signedInPage(browser, server, 10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const row = (sessionId: string) => page.locator(`.list li[data-session="${sessionId}"]`);

  it('marks a session whose last turn the shutdown cancelled as interrupted in the list', async () => {
    await page.goto(`${server.url}/#/sessions`);

    const badge = row(interrupted).locator('.last-turn');

    await badge.waitFor();
    expect(await badge.innerText()).toBe('interrupted');
    expect(await badge.getAttribute('class')).toContain('status-interrupted');
    await screenshot(page, 'sessions-last-turn');
  });

  it('marks a session whose last turn completed quietly, as a plain badge', async () => {
    const badge = row(completed).locator('.last-turn');

    expect(await badge.innerText()).toBe('completed');
    expect(await badge.getAttribute('class')).not.toContain('status');
  });

  it('marks the open transcript of an interrupted session interrupted', async () => {
    await row(interrupted).click();

    await page.locator('.transcript .turn').waitFor();
    expect(await page.locator('.transcript header .last-turn').innerText()).toBe('interrupted');
  });

  it('marks the chat continuing an interrupted session interrupted', async () => {
    await page.goto(`${server.url}/#/chat/${encodeURIComponent(interrupted)}`);

    await page.locator('.chat .turn').waitFor();
    expect(await page.locator('.chat header .last-turn').innerText()).toBe('interrupted');
  });
});
