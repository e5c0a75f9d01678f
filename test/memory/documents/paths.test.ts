import { describe, expect, it } from 'vitest';
import { checkBundleName, checkDocumentPath } from '../../../src/memory/documents/paths.js';

describe('document paths', () => {
  it('adds the .md extension to a path given as a slug', () => {
    expect(checkDocumentPath('notes', 'projects/apollo')).toBe('projects/apollo.md');
  });

  it('keeps a path that already ends in .md', () => {
    expect(checkDocumentPath('notes', 'people/Ada Lovelace.md')).toBe('people/Ada Lovelace.md');
  });

  it.each([
    ['../secrets.md', "escapes its bundle ('..' segments are not allowed)"],
    ['a/../../b.md', "escapes its bundle ('..' segments are not allowed)"],
    ['/etc/passwd.md', 'escapes its bundle (absolute paths are not allowed)'],
    ['C:/windows.md', 'escapes its bundle (absolute paths are not allowed)'],
  ])('refuses %s because it escapes its bundle', (path, reason) => {
    expect(() => checkDocumentPath('notes', path)).toThrow(`document path ${JSON.stringify(path)} in bundle 'notes' is refused: it ${reason}`);
  });

  it('refuses backslashes, which would separate folders on Windows', () => {
    expect(() => checkDocumentPath('notes', 'a\\b.md')).toThrow("use '/' to separate folders, not '\\'");
  });

  it('refuses hidden files and odd characters', () => {
    expect(() => checkDocumentPath('notes', '.hidden.md')).toThrow(`segment ".hidden.md" may only hold letters`);
    expect(() => checkDocumentPath('notes', 'a/b?.md')).toThrow(`segment "b?.md" may only hold letters`);
  });

  it('refuses the index.md and log.md that Syndicate maintains', () => {
    expect(() => checkDocumentPath('notes', 'index.md')).toThrow("'index.md' is maintained by Syndicate");
    expect(() => checkDocumentPath('notes', 'log')).toThrow("'log.md' is maintained by Syndicate");
  });

  it('allows index.md below the bundle root', () => {
    expect(checkDocumentPath('notes', 'projects/index.md')).toBe('projects/index.md');
  });

  it('refuses bundle names that are not simple lowercase names', () => {
    expect(() => checkBundleName('../x')).toThrow('invalid bundle name "../x"');
    expect(() => checkBundleName('Notes')).toThrow('invalid bundle name "Notes"');
    expect(checkBundleName('team-notes_2')).toBe('team-notes_2');
  });
});
