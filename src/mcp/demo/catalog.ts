import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

// The demo library's catalog: a handful of scrolls that can be searched, read, borrowed and
// annotated. State lives in one JSON file, rewritten whole (via a temporary file and a rename,
// so a crash never leaves half a file) after every change.

const annotationSchema = z.object({ by: z.string(), note: z.string(), at: z.string() });

const scrollSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  subjects: z.array(z.string()),
  text: z.string(),
  borrowedBy: z.string().nullable(),
  annotations: z.array(annotationSchema),
});

const catalogFileSchema = z.object({ version: z.literal(1), scrolls: z.array(scrollSchema) });

export type Scroll = z.infer<typeof scrollSchema>;

export interface ScrollSummary {
  id: string;
  title: string;
  author: string;
  subjects: string[];
  available: boolean;
}

export interface Catalog {
  search(query: string, limit: number): ScrollSummary[];
  read(id: string): Scroll;
  borrow(id: string, borrower: string): Scroll;
  annotate(id: string, note: string, by: string): Scroll;
}

function seed(): Scroll[] {
  const scroll = (id: string, title: string, author: string, subjects: string[], text: string): Scroll => ({ id, title, author, subjects, text, borrowedBy: null, annotations: [] });
  return [
    scroll('S-101', 'On the Tides of the Inner Sea', 'Maren of Ost', ['tides', 'navigation', 'moon'], 'The sea breathes twice a day. Mark the moon, and the harbour will not surprise you.'),
    scroll('S-102', 'A Treatise on Ink and Vellum', 'Brother Odo', ['bookbinding', 'ink', 'crafts'], 'Oak gall, iron and patience make an ink that outlives its writer.'),
    scroll('S-103', 'The Star Charts of Keth', 'Ilsa Keth', ['astronomy', 'navigation', 'stars'], 'Seven fixed lights guide the night sailor; the eighth wanders and lies.'),
    scroll('S-104', 'Herbs of the Salt Marsh', 'Tamsin Reed', ['herbs', 'medicine', 'marsh'], 'Samphire for the stomach, sea lavender for the fever, and never the grey reed.'),
    scroll('S-105', 'Ledger Keeping for Guilds', 'Corvin Ashe', ['accounting', 'guilds', 'trade'], 'Every coin that enters has a twin that leaves; write both, or write neither.'),
    scroll('S-106', 'Songs of the Lighthouse Keepers', 'Anonymous', ['songs', 'sea', 'lighthouses'], 'Keep the flame, keep the count, keep the door shut against the gale.'),
  ];
}

function load(file: string): Scroll[] {
  if (!existsSync(file)) return seed();
  const parsed = catalogFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a catalog file (${parsed.error.issues[0]?.message ?? 'bad shape'}): move it away to start from the seed catalog`);
  return parsed.data.scrolls;
}

function save(file: string, scrolls: readonly Scroll[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, scrolls }, null, 2)}\n`);
  renameSync(temporary, file);
}

function summary(scroll: Scroll): ScrollSummary {
  return { id: scroll.id, title: scroll.title, author: scroll.author, subjects: scroll.subjects, available: scroll.borrowedBy === null };
}

function matches(scroll: Scroll, words: readonly string[]): boolean {
  const haystack = [scroll.title, scroll.author, ...scroll.subjects, scroll.text].join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Opens the catalog stored in `file`, starting from the seed scrolls when it does not exist yet. */
export function openCatalog(file: string, now: () => Date = () => new Date()): Catalog {
  const scrolls = load(file);
  const find = (id: string): Scroll => {
    const scroll = scrolls.find((s) => s.id.toLowerCase() === id.trim().toLowerCase());
    if (!scroll) throw new Error(`no scroll '${id}': search_catalog lists the ids`);
    return scroll;
  };
  return {
    search(query, limit) {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      return scrolls.filter((scroll) => matches(scroll, words)).slice(0, limit).map(summary);
    },
    read: find,
    borrow(id, borrower) {
      const scroll = find(id);
      if (scroll.borrowedBy !== null) throw new Error(`${scroll.id} is already borrowed by ${scroll.borrowedBy}`);
      scroll.borrowedBy = borrower;
      save(file, scrolls);
      return scroll;
    },
    annotate(id, note, by) {
      const scroll = find(id);
      scroll.annotations.push({ by, note, at: now().toISOString() });
      save(file, scrolls);
      return scroll;
    },
  };
}
