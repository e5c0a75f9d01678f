import { describe, expect, it } from 'vitest';
import { DocumentError } from '../../../src/memory/documents/errors.js';
import { documentTitle, parseFrontmatter } from '../../../src/memory/documents/frontmatter.js';

describe('frontmatter', () => {
  it('reads the YAML mapping between the --- lines and says where the body starts', () => {
    const parsed = parseFrontmatter('notes/a.md', '---\ntitle: Plan\ntags: [q3, budget]\n---\n# Body\n');
    expect(parsed).toEqual({ frontmatter: { title: 'Plan', tags: ['q3', 'budget'] }, bodyStartLine: 5 });
  });

  it('treats a document without frontmatter as all body', () => {
    expect(parseFrontmatter('notes/a.md', '# Just text\n')).toEqual({ frontmatter: {}, bodyStartLine: 1 });
  });

  it('refuses malformed YAML naming the file and the line of the file', () => {
    const content = '---\ntitle: Plan\ntags: [q3\nowner: ada\n---\nbody\n';
    expect(() => parseFrontmatter('notes/a.md', content)).toThrow(DocumentError);
    expect(() => parseFrontmatter('notes/a.md', content)).toThrow(/^notes\/a\.md:\d+: malformed frontmatter: /);
  });

  it('refuses a duplicated key at its line', () => {
    expect(() => parseFrontmatter('notes/a.md', '---\ntitle: A\ntitle: B\n---\n')).toThrow(/^notes\/a\.md:3: malformed frontmatter: Map keys must be unique/);
  });

  it.each([
    ['an unresolved alias', 'title: *nowhere'],
    ['an alias bomb', ['a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]'].join('\n')],
  ])('refuses %s as malformed frontmatter', (_kind, yaml) => {
    expect(() => parseFrontmatter('notes/a.md', `---\n${yaml}\n---\nbody\n`)).toThrow(/^notes\/a\.md:2: malformed frontmatter: /);
  });

  it('refuses frontmatter that is never closed', () => {
    expect(() => parseFrontmatter('notes/a.md', '---\ntitle: A\n# body')).toThrow(
      "notes/a.md:1: malformed frontmatter: the '---' on line 1 is never closed by another '---' line",
    );
  });

  it('refuses frontmatter that is not a mapping', () => {
    expect(() => parseFrontmatter('notes/a.md', '---\n- a\n- b\n---\n')).toThrow('notes/a.md:2: malformed frontmatter: it must be a mapping');
  });

  it('takes the title from frontmatter, else from the first top heading', () => {
    expect(documentTitle({ title: 'From YAML' }, ['# From heading'], 1)).toBe('From YAML');
    expect(documentTitle({}, ['intro', '# From heading'], 1)).toBe('From heading');
    expect(documentTitle({}, ['no heading'], 1)).toBeUndefined();
  });
});
