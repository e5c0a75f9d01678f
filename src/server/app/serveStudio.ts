import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler } from 'express';

// Serves the bundled studio (dist/studio: index.html, studio.js, studio.css) at /. Any other
// path a browser asks for with GET (a bookmarked page) gets index.html; the API, A2A and MCP are
// mounted before this handler, so it never shadows them.

// Only this origin's script and styles run: model output the studio renders cannot load or run anything.
const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The studio's handler, or undefined when `folder` holds no build (the package was not built: `npm run build`). */
export function serveStudio(folder: string): RequestHandler | undefined {
  const index = join(folder, 'index.html');
  if (!existsSync(index)) return undefined;
  const files = express.static(folder, { index: 'index.html', fallthrough: true, setHeaders: (res) => res.set(SECURITY_HEADERS) });
  const router = express.Router();
  router.use(files);
  router.get(/.*/, (_req, res) => {
    res.set({ ...SECURITY_HEADERS, 'cache-control': 'no-cache' });
    res.sendFile(index);
  });
  return router;
}
