import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../../src/memory/documents/links.js';

function linksOf(path: string, text: string) {
  return extractLinks('notes', path, text.split('\n'));
}

describe('links', () => {
  it('resolves markdown links relative to the linking document, inside the bundle', () => {
    expect(linksOf('projects/apollo.md', 'See [the budget](budget.md) and [Ada](../people/ada.md#bio).')).toEqual([
      { to: { bundle: 'notes', path: 'projects/budget.md' }, label: 'the budget', line: 1 },
      { to: { bundle: 'notes', path: 'people/ada.md' }, label: 'Ada', line: 1 },
    ]);
  });

  it('reads [[bundle/slug]] as a link across bundles, with an optional label', () => {
    expect(linksOf('a.md', 'line one\nAsk [[crm/customers/acme]] or [[crm/ada|Ada]].')).toEqual([
      { to: { bundle: 'crm', path: 'customers/acme.md' }, label: 'crm/customers/acme', line: 2 },
      { to: { bundle: 'crm', path: 'ada.md' }, label: 'Ada', line: 2 },
    ]);
  });

  it('reads [[slug]] without a bundle as a link within the same bundle', () => {
    expect(linksOf('a.md', '[[glossary]]')).toEqual([{ to: { bundle: 'notes', path: 'glossary.md' }, label: 'glossary', line: 1 }]);
  });

  it('ignores web links, images, anchors and links that leave the bundle', () => {
    expect(linksOf('a.md', '[web](https://x.org/a.md) ![img](pic.md) [top](#top) [out](../../other/b.md) [txt](notes.txt)')).toEqual([]);
  });

  it('ignores links inside fenced code and inline code', () => {
    const text = ['```md', '[not a link](b.md)', '```', 'Use `[[x/y]]` syntax, see [real](c.md).'].join('\n');
    expect(linksOf('a.md', text)).toEqual([{ to: { bundle: 'notes', path: 'c.md' }, label: 'real', line: 4 }]);
  });
});
