import { z } from 'zod';
import { defineTool, type AnyTool } from '../../core/tool.js';
import type { Catalog } from './catalog.js';

// The demo library's tools, written against our own Tool contract and served through the
// same adapter as ask_<syndicate>: two that read the catalog and two that change it.

const scrollId = z.string().trim().min(1).max(32).describe('A scroll id from search_catalog, e.g. "S-101".');
const person = z.string().trim().min(1).max(80);

export function catalogTools(catalog: Catalog): AnyTool[] {
  return [
    defineTool({
      name: 'search_catalog',
      description: 'Searches the library catalog by words in the title, author, subjects or text. Returns matching scrolls with their ids and whether they are available.',
      inputSchema: z.object({
        query: z.string().trim().min(1).max(200).describe('Words that must all appear, e.g. "tides moon".'),
        limit: z.number().int().min(1).max(20).default(5).describe('Most scrolls to return (default 5).'),
      }),
      execute: ({ query, limit }) => ({ scrolls: catalog.search(query, limit) }),
    }),
    defineTool({
      name: 'read_scroll',
      description: 'Reads one scroll: its full text, who has borrowed it, and its annotations.',
      inputSchema: z.object({ id: scrollId }),
      execute: ({ id }) => catalog.read(id),
    }),
    defineTool({
      name: 'borrow_scroll',
      description: 'Lends a scroll to a reader. Fails when the scroll is already borrowed.',
      inputSchema: z.object({ id: scrollId, borrower: person.describe('Who borrows it, e.g. "Ada".') }),
      execute: ({ id, borrower }) => {
        const scroll = catalog.borrow(id, borrower);
        return { id: scroll.id, title: scroll.title, borrowedBy: scroll.borrowedBy };
      },
    }),
    defineTool({
      name: 'annotate_scroll',
      description: "Adds a note to a scroll's margin, kept with the scroll for later readers.",
      inputSchema: z.object({
        id: scrollId,
        note: z.string().trim().min(1).max(2000).describe('The note to add.'),
        by: person.default('librarian').describe('Who writes the note (default "librarian").'),
      }),
      execute: ({ id, note, by }) => {
        const scroll = catalog.annotate(id, note, by);
        return { id: scroll.id, annotations: scroll.annotations };
      },
    }),
  ];
}
