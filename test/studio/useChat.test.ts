import { join } from 'node:path';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionIdFor } from '../../src/server/sessionAccess.js';
import { ADMIN_TOKEN, HAVE_CHROMIUM, launchBrowser, screenshot, startStudioServer, type StudioServer } from './browser.js';

// useChat from @ai-sdk/react, the hook itself, against `syndicate serve`: a React page
// (useChat/page.tsx) bundled by esbuild when the tests start and opened in Chromium at the
// server's own origin, so the hook's requests go straight to the server's chat route.

const PAGE = '/use-chat-test/';

/** The page's script, bundled in memory as an app's build would bundle it (React's development build, which warns). */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dirname, 'useChat', 'page.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120'],
    jsx: 'automatic',
    jsxImportSource: 'react',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

let server: StudioServer;
let browser: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

describe.skipIf(!HAVE_CHROMIUM)("useChat from @ai-sdk/react against the server's chat route", () => {
  beforeAll(async () => {
    const [script, started] = await Promise.all([bundlePage(), startStudioServer()]);
    server = started;
    browser = await launchBrowser();
    // The page and its script are answered by the browser's router; everything else, the chat
    // route first of all, by the server.
    await browser.route(`${server.url}${PAGE}**`, (route) => {
      const isScript = new URL(route.request().url()).pathname.endsWith('/page.js');
      return route.fulfill(
        isScript
          ? { contentType: 'text/javascript', body: script }
          : { contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>useChat</title></head><body><div id="root"></div><script type="module" src="${PAGE}page.js"></script></body></html>` },
      );
    });
    page = await browser.newPage();
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    page.on('pageerror', (error) => void consoleErrors.push(error.message));
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openChat(syndicate: string, chat: string): Promise<void> {
    await page.goto(`${server.url}${PAGE}?${new URLSearchParams({ syndicate, chat, key: ADMIN_TOKEN })}`);
  }

  async function send(text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  const logLines = () => page.getByRole('list', { name: 'Log' }).locator('li').allInnerTexts();
  const assistant = (index: number) => page.locator('[data-role="assistant"]').nth(index);

  it("streams the council's answer, each delegation arriving as a tool part and a data-delegation part that goes from running to completed", async () => {
    await openChat('council', 'council-chat');

    await send('Should we adopt a four-day week?');

    await assistant(0).and(page.locator('[data-turn-status="completed"]')).waitFor();
    await page.locator('main[data-status="ready"]').waitFor();
    expect((await assistant(0).locator('[data-part="text"]').allInnerTexts()).join('').trim()).not.toBe('');
    for (const agent of ['Advocate', 'Skeptic']) {
      expect(await assistant(0).locator(`[data-part="tool"][data-tool="${agent}"]`).getAttribute('data-state')).toBe('output-available');
      expect(await assistant(0).locator(`[data-part="delegation"][data-agent="${agent}"]`).getAttribute('data-status')).toBe('completed');
    }
    const log = await logLines();
    expect(log.filter((line) => line.startsWith('status'))).toEqual(['status ready', 'status submitted', 'status streaming', 'status ready']);
    expect(log.filter((line) => line.startsWith('delegation Advocate'))).toEqual(['delegation Advocate running', 'delegation Advocate completed']);
    expect(consoleErrors).toEqual([]);
    await screenshot(page, 'use-chat-council');
  });

  it("answers an ask_user question with the chat's next message, in the same session", async () => {
    await openChat('waiting-room', 'offsite-chat');

    await send('Plan the offsite');
    await assistant(0).and(page.locator('[data-turn-status="input-required"]')).waitFor();
    await page.locator('main[data-status="ready"]').waitFor();
    await send('Lisbon');

    await assistant(1).and(page.locator('[data-turn-status="completed"]')).waitFor();
    expect(await assistant(0).locator('[data-part="text"]').innerText()).toContain('Which city should the offsite be in?');
    expect(await assistant(1).locator('[data-part="text"]').innerText()).toBe('Lisbon booked.');
    const events = await fetch(`${server.url}/api/v1/sessions/${encodeURIComponent(sessionIdFor('admin', 'offsite-chat'))}/events`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const inputs = ((await events.json()) as { events: Array<{ event: { type: string; input?: string } }> }).events.filter(({ event }) => event.type === 'turn-start').map(({ event }) => event.input);
    expect(inputs).toEqual(['Plan the offsite', 'Lisbon']);
    expect(consoleErrors).toEqual([]);
    await screenshot(page, 'use-chat-question');
  });

  it('ends the chat ready, its message cancelled and its unanswered tool call an error, when the turn is cancelled on the server while the hook streams it', async () => {
    await openChat('waiting-room', 'waiting-chat');
    await send('Please wait');
    await page.locator('[data-part="tool"][data-tool="flaky_hang"]').waitFor();

    const cancelled = await fetch(`${server.url}/api/v1/sessions/${encodeURIComponent(sessionIdFor('admin', 'waiting-chat'))}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

    expect(await cancelled.json()).toEqual({ cancelled: true });
    await page.locator('main[data-status="ready"]').waitFor();
    expect(await assistant(0).getAttribute('data-turn-status')).toBe('cancelled');
    expect(await assistant(0).locator('[data-part="tool"][data-tool="flaky_hang"]').getAttribute('data-state')).toBe('output-error');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await screenshot(page, 'use-chat-cancelled');
  });
});
