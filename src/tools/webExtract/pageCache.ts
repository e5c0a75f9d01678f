// Extracted pages kept for a while, so that reading on with `offset` does not fetch the page
// again (and sees the same text the first window came from). Bounded in entries, oldest out first.

export interface CachedPage {
  url: string;
  title: string;
  text: string;
  extraction: 'article' | 'page';
}

export interface PageCache {
  get(url: string): CachedPage | undefined;
  set(url: string, page: CachedPage): void;
}

export const PAGE_CACHE_TTL_MS = 15 * 60_000;
const MAX_PAGES = 100;

export function createPageCache(ttlMs: number = PAGE_CACHE_TTL_MS, now: () => number = Date.now): PageCache {
  const pages = new Map<string, { page: CachedPage; expiresAt: number }>();
  return {
    get(url) {
      const entry = pages.get(url);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        pages.delete(url);
        return undefined;
      }
      return entry.page;
    },
    set(url, page) {
      pages.delete(url);
      pages.set(url, { page, expiresAt: now() + ttlMs });
      if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
    },
  };
}
