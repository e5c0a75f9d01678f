import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStudio } from '../../src/server/app/serveStudio.js';
import { scratchDir } from '../support/scratchDir.js';

// The studio's static handler: the bundle's files, index.html for any other page, and headers
// that keep rendered model output from loading or running anything.

let close: (() => void) | undefined;

afterEach(() => close?.());

async function serving(folder: string): Promise<string> {
  const app = express();
  app.use(serveStudio(folder)!);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function built(): string {
  const folder = scratchDir('studio-build');
  writeFileSync(join(folder, 'index.html'), '<!doctype html><div id="app"></div>');
  writeFileSync(join(folder, 'studio.js'), 'export {};');
  return folder;
}

describe('serveStudio', () => {
  it('serves the bundle and answers any other page with index.html', async () => {
    const url = await serving(built());

    const script = await fetch(`${url}/studio.js`);
    const page = await fetch(`${url}/sessions/some-bookmark`);

    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await page.text()).toContain('<div id="app">');
  });

  it('sends a content security policy that allows only its own scripts', async () => {
    const url = await serving(built());

    const policy = (await fetch(`${url}/`)).headers.get('content-security-policy');

    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
  });

  it('is absent when the folder holds no build', () => {
    expect(serveStudio(scratchDir('studio-unbuilt'))).toBeUndefined();
  });
});
