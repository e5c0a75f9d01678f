import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratchDir.js';
import { FLAKY_MCP_SERVER, HAVE_CHROMIUM, launchBrowser, screenshot, signedInPage, startStudioServer, type StudioServer } from './browser.js';

// The studio's Work page as a user meets it, against a real `syndicate serve --offline`: a task
// added in the form fires every two seconds and its answered runs show up, a bad cron is refused
// with the server's advice, a removed task leaves the list, and a background job started from a
// chat (its piece never ends) is cancelled from the page.

let server: StudioServer;
let browser: BrowserContext;
let page: Page;

/** A syndicate whose Clerk hands errands to a Runner in the background; the Runner's piece hangs until cancelled. */
function backOffice(): string {
  const file = join(scratchDir('studio-work'), 'back-office.yaml');
  writeFileSync(
    file,
    `syndicate_name: "Back Office"
memory_system: "session-only"
orchestrator:
  name: "Clerk"
  model: "scripted"
  instruction: "Hand errands to the Runner in the background."
  tools: [delegate_background, list_background_jobs, cancel_background_job]
  script:
    - { match: "errand", tool_calls: [{ tool: delegate_background, args: { agent: Runner, request: "run the errand" } }], repeat: true }
    - { match: '"job_id"', reply: "The Runner is on it.", repeat: true }
subagents:
  - name: "Runner"
    description: "Runs errands."
    model: "scripted"
    instruction: "Run the errand."
    mcp_servers:
      - { name: flaky, transport: stdio, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FLAKY_MCP_SERVER)}] }
    script:
      - { match: "errand", tool_calls: [{ tool: flaky_hang, args: {} }], repeat: true }
`,
  );
  return file;
}

describe.skipIf(!HAVE_CHROMIUM)('the studio’s Work page', () => {
  beforeAll(async () => {
    server = await startStudioServer({ files: [backOffice()] });
    browser = await launchBrowser();
    page = await signedInPage(browser, server, 15_000);
    page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function addTask(name: string, cron: string): Promise<void> {
    await page.getByLabel('Task syndicate').selectOption('council');
    await page.getByLabel('Task name').fill(name);
    await page.getByLabel('Schedule', { exact: true }).fill(cron);
    await page.getByLabel('Task message').fill('Should we ship on Fridays?');
    await page.getByRole('button', { name: 'Add task' }).click();
  }

  it('adds a task that fires every two seconds and shows its answered runs', async () => {
    await page.goto(`${server.url}/#/work`);

    await addTask('pulse', '*/2 * * * * *');
    await page.locator('tr[data-task="pulse"]').getByRole('button', { name: 'Runs' }).click();

    await page.locator('[data-runs-of="pulse"] tr[data-status="answered"]').first().waitFor();
    expect(await page.locator('tr[data-task="pulse"]').innerText()).toContain('*/2 * * * * * (UTC)');
    await screenshot(page, 'work-task-runs');
  });

  it("refuses an invalid cron with the server's advice", async () => {
    await addTask('broken', '61 * * * *');

    await expect.poll(() => page.locator('.add-task [role="alert"]').innerText()).toContain("'61 * * * *' is not a cron expression croner accepts");
    expect(await page.locator('tr[data-task="broken"]').count()).toBe(0);
  });

  it('removes a task: it leaves the list of active tasks', async () => {
    await page.locator('tr[data-task="pulse"]').getByRole('button', { name: 'Remove' }).click();

    await page.locator('tr[data-task="pulse"]').waitFor({ state: 'detached' });
  });

  it('cancels a background job started from a chat, its piece still running', async () => {
    await page.goto(`${server.url}/#/chat`);
    await page.getByLabel('Syndicate').selectOption('back-office');
    await page.getByLabel('Message').fill('Please run my errand.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.turn[data-status="completed"] .answer').waitFor();

    await page.goto(`${server.url}/#/work`);
    const job = page.locator('.jobs tr[data-status="running"]').first();
    await job.getByRole('button', { name: 'Cancel' }).click();

    await page.locator('.jobs tr[data-status="cancelled"]').first().waitFor();
    expect(await page.locator('.jobs tr[data-status="running"]').count()).toBe(0);
    await screenshot(page, 'work-job-cancelled');
  });
});
