import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TurnEvent } from '../../src/core/events.js';
import { createPlatform } from '../../src/platform/createPlatform.js';
import { sessionIdFor } from '../../src/server/sessionAccess.js';
import { REPO_ROOT, startCli, type LiveCli } from '../cli/cli.js';
import { waitingRoom } from '../cli/serveFile.js';
export { FLAKY_MCP_SERVER } from '../cli/serveFile.js';
import { IN_CI } from '../inCi.js';
import { scratchDir } from '../support/scratchDir.js';

// The studio in a real browser: Debian's Chromium driven by playwright-core (which cannot
// download a browser here), against a real `syndicate serve` process on 127.0.0.1.

export const CHROMIUM = '/usr/bin/chromium';
/** Without Chromium the browser tests skip on a developer's machine; CI installs it (.ci/run), and there they fail. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM) || IN_CI;

export const ADMIN_TOKEN = 'a-long-admin-token-for-the-studio-tests';
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'studio');

// DESIGN.md's flags: nothing runs in the background or reaches the network on its own.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchBrowser(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(scratchDir('chromium-profile'), { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 860 } });
}

/** A page of the browser signed in to the studio as the admin, its locators waiting up to `timeoutMs`. */
export async function signedInPage(browser: BrowserContext, server: StudioServer, timeoutMs: number): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(timeoutMs);
  await page.goto(`${server.url}/#sign-in=${ADMIN_TOKEN}`);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

export interface StudioServer {
  url: string;
  live: LiveCli;
  /** The process's SYNDICATE_HOME, where its store is. */
  home: string;
  /** The waiting room's file, served beside the bundled examples (tests edit it). */
  waitingRoom: string;
  stop(): Promise<void>;
}

/** `syndicate serve --offline` on port 0 with the bundled examples, the waiting room and `files`, the admin token set, and `env`. */
export async function startStudioServer({ env = {}, files = [] }: { env?: Record<string, string>; files?: readonly string[] } = {}): Promise<StudioServer> {
  const home = scratchDir('studio-home');
  let stdout = '';
  const room = waitingRoom(home);
  const live = startCli(['serve', '--offline', '--port', '0', join(REPO_ROOT, 'examples'), room, ...files], { home, env: { SYNDICATE_ADMIN_TOKEN: ADMIN_TOKEN, ...env } });
  live.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  await live.waitForStdout('MCP:');
  const url = /Syndicate server at (http:\/\/\S+)/.exec(stdout)?.[1];
  if (!url) throw new Error(`serve printed no URL: ${stdout}`);
  return {
    url,
    live,
    home,
    waitingRoom: room,
    async stop() {
      if (live.child.exitCode === null) live.child.kill('SIGKILL');
      await live.result;
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Stores a fact in the admin's silo of the concierge through the server's MCP face (its `remember` tool). */
export async function rememberForAdmin(server: StudioServer, text: string, keys: string[]): Promise<void> {
  const client = new Client({ name: 'studio-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } } }));
  try {
    const result = await client.callTool({ name: 'concierge_remember', arguments: { text, keys } });
    if (result.isError) throw new Error(`remember failed: ${JSON.stringify(result.content)}`);
  } finally {
    await client.close();
  }
}

/** Writes a document into the admin's silo of the concierge over the API, as the admin's key. */
export async function writeDocumentForAdmin(server: StudioServer, bundle: string, path: string, content: string): Promise<void> {
  const response = await fetch(`${server.url}/api/v1/memory/concierge/documents/${bundle}/${encodeURIComponent(path)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content, reason: 'seeded by the test' }),
  });
  if (!response.ok) throw new Error(`writing ${bundle}/${path} answered ${response.status}: ${await response.text()}`);
}

/** Events appended at once: a turn's batches are this small, and SQLite ingests a batch of thousands slowly. */
const BATCH = 100;

/** Appends events to a session of the admin's straight in the server's store (its SQLite file takes a second process), for sessions no test could run turns enough to make. */
export async function storeEventsForAdmin(server: StudioServer, clientId: string, syndicate: string, events: readonly TurnEvent[]): Promise<string> {
  const platform = await createPlatform({ env: { SYNDICATE_HOME: server.home } });
  try {
    const store = await platform.store();
    const sessionId = sessionIdFor('admin', clientId);
    await store.openSession(sessionId, syndicate);
    for (let at = 0; at < events.length; at += BATCH) await store.appendEvents(sessionId, events.slice(at, at + BATCH));
    return sessionId;
  } finally {
    await platform.close();
  }
}
