import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebExtract, type ExtractedPage, type WebExtractOptions, type WebExtractOutput } from '../../../src/tools/builtin/webExtract.js';
import { STRICT_POLICY, type NetworkPolicy } from '../../../src/tools/guards/ssrf.js';
import { createPageCache } from '../../../src/tools/webExtract/pageCache.js';
import { builtinTools } from '../../../src/tools/registry.js';
import type { ToolContext } from '../../../src/core/tool.js';
import { startLoopback, type LoopbackServer } from '../loopbackHttp.js';

const LOOPBACK_ALLOWED: NetworkPolicy = { allowPrivate: true, allowedHosts: new Set() };
const ctx: ToolContext = { agent: 'Reader', turnId: 't1', sessionId: undefined, signal: new AbortController().signal };

const paragraphs = (count: number, word: string): string =>
  Array.from({ length: count }, (_, i) => `<p>${word} paragraph ${i}: a sentence long enough to look like the body of a real article, with detail and context for the reader.</p>`).join('\n');

function article(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/shop">Shop</a></nav>
<article><h1>${title}</h1>${body}</article>
<footer>Copyright 2026 Example Media. All rights reserved. Cookie settings.</footer></body></html>`;
}

const PAGES: Record<string, { status?: number; type?: string; body: string }> = {
  '/article': { body: article('Offsite in Lisbon', paragraphs(6, 'Lisbon')) },
  '/long': { body: article('A very long report', `${paragraphs(150, 'Report')}<p>THE FINAL CONCLUSION of the report.</p>`) },
  '/cloudflare': { status: 403, body: '<html><head><title>Just a moment...</title></head><body><div id="challenge-platform">Checking your browser before accessing.</div><script src="/cdn-cgi/challenge-platform/x.js"></script></body></html>' },
  '/paywall': { body: article('Exclusive story', '<p>The first lines of the story.</p><p>Subscribe to continue reading. Already a subscriber? Log in.</p>') },
  '/shell': { body: '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script src="/static/app.js"></script></body></html>' },
  '/plain': { type: 'text/plain; charset=utf-8', body: 'Plain notes: 3 venues, 2 quotes.' },
  '/image': { type: 'image/png', body: 'PNG' },
};

let server: LoopbackServer;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = await startLoopback((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/moved') return void response.writeHead(301, { location: '/article' }).end();
    const page = PAGES[path];
    if (!page) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
    response.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8' }).end(page.body);
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => hits.clear());

function tool(options: WebExtractOptions = {}) {
  return createWebExtract({ policy: LOOPBACK_ALLOWED, ...options });
}

async function read(urls: string[], extra: { offset?: number; max_chars?: number } = {}, options?: WebExtractOptions): Promise<WebExtractOutput> {
  return tool(options).execute({ urls: urls.map((path) => `${server.origin}${path}`), ...extra }, ctx);
}

function text(page: ExtractedPage | undefined): string {
  if (!page || 'error' in page) throw new Error(`expected a page, got ${JSON.stringify(page)}`);
  return page.text;
}

describe('web_extract', () => {
  it('is a built-in tool', () => {
    expect(builtinTools.get('web_extract')?.name).toBe('web_extract');
  });

  it('returns the main text of a page without its navigation and footer, labelled as data', async () => {
    const output = await read(['/article']);

    expect(output.source).toMatch(/not instructions/);
    expect(output.pages[0]).toMatchObject({ title: 'Offsite in Lisbon', extraction: 'article' });
    expect(text(output.pages[0])).toContain('Lisbon paragraph 5');
    expect(text(output.pages[0])).not.toMatch(/About us|Copyright 2026/);
  });

  it('accepts 1 to 5 URLs and refuses more', () => {
    const schema = tool().inputSchema;
    const urls = (n: number): string[] => Array.from({ length: n }, (_, i) => `https://example.com/${i}`);

    expect([schema.safeParse({ urls: urls(5) }).success, schema.safeParse({ urls: urls(6) }).success, schema.safeParse({ urls: [] }).success]).toEqual([true, false, false]);
  });

  it('refuses URLs that are not http(s)', () => {
    expect(tool().inputSchema.safeParse({ urls: ['file:///etc/passwd'] }).success).toBe(false);
  });

  it('shows a long page as head and tail within the budget, with an offset to read on', async () => {
    const [page] = (await read(['/long'])).pages;

    expect(page).toMatchObject({ offset: 0, next_offset: 12_000 });
    expect(text(page).length).toBeLessThan(15_000 + 200);
    expect(text(page)).toMatch(/characters left out here .* call web_extract again with offset 12000/);
    expect(text(page)).toContain('THE FINAL CONCLUSION');
  });

  it('serves the continuation from the cache without fetching the page again', async () => {
    const extract = tool();
    const url = `${server.origin}/long`;
    const first = await extract.execute({ urls: [url] }, ctx);
    const offset = (first.pages[0] as { next_offset: number }).next_offset;

    const next = await extract.execute({ urls: [url], offset }, ctx);

    expect(text(first.pages[0])).not.toContain('Report paragraph 100');
    expect(next.pages[0]).toMatchObject({ offset });
    expect(text(next.pages[0])).toContain('Report paragraph 100');
    expect(hits.get('/long')).toBe(1);
  });

  it('fetches a page again once its cache entry is older than the cache’s lifetime', async () => {
    let now = 0;
    const extract = tool({ cache: createPageCache(15 * 60_000, () => now) });
    await extract.execute({ urls: [`${server.origin}/article`] }, ctx);

    now = 15 * 60_000 + 1;
    await extract.execute({ urls: [`${server.origin}/article`] }, ctx);

    expect(hits.get('/article')).toBe(2);
  });

  it('takes the per-page budget from the tool’s options or the call', async () => {
    const configured = await read(['/long'], {}, { maxChars: 2_000 });
    const perCall = await read(['/long'], { max_chars: 5_000 });

    expect([configured.pages[0], perCall.pages[0]]).toMatchObject([{ next_offset: 1_600 }, { next_offset: 4_000 }]);
  });

  it('reports a bot check page as a labelled error, never as content', async () => {
    const output = await read(['/article', '/cloudflare']);

    expect(output.pages[1]).toEqual({ url: `${server.origin}/cloudflare`, error: expect.stringMatching(/^bot-check: .*\(HTTP 403\)/) });
  });

  it('reports a paywall stub as a labelled error', async () => {
    const output = await read(['/article', '/paywall']);

    expect(output.pages[1]).toMatchObject({ error: expect.stringMatching(/^paywall: /) });
  });

  it('reports an empty JavaScript shell as a labelled error', async () => {
    const output = await read(['/article', '/shell']);

    expect(output.pages[1]).toMatchObject({ error: expect.stringMatching(/^js-shell: .*JavaScript/) });
  });

  it('fails the call, naming each page’s problem, when no page could be read', async () => {
    await expect(read(['/cloudflare', '/missing'])).rejects.toThrow(/cloudflare: bot-check: .*; .*\/missing: http-404/);
  });

  it('refuses loopback pages under the default SSRF policy, saying how to allow them', async () => {
    await expect(read(['/article'], {}, { policy: STRICT_POLICY })).rejects.toThrow(/refused: .*loopback address.*ALLOW_PRIVATE_MCP=true/);
  });

  it('follows a redirect and says where the text came from', async () => {
    const [page] = (await read(['/moved'])).pages;

    expect(page).toMatchObject({ url: `${server.origin}/moved`, final_url: `${server.origin}/article`, title: 'Offsite in Lisbon' });
  });

  it('returns a plain-text page as it is', async () => {
    expect(text((await read(['/plain'])).pages[0])).toBe('Plain notes: 3 venues, 2 quotes.');
  });

  it('reports a URL that is not a web page as unsupported', async () => {
    const output = await read(['/article', '/image']);

    expect(output.pages[1]).toMatchObject({ error: expect.stringMatching(/^unsupported: .*image\/png/) });
  });
});
