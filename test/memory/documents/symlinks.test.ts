import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentTools, DocumentError } from '../../../src/memory/documents/index.js';
import type { AnyTool, ToolContext } from '../../../src/core/tool.js';
import { openFixture, SILO, type Fixture } from './setup.js';

// A symbolic link inside a bundle (made by a person, git or another program) must not lead the
// memory tools out of the silo's folder.

const ctx: ToolContext = { agent: 'Scribe', turnId: 'turn-1', sessionId: 's', signal: new AbortController().signal };

describe('document tools and symbolic links', () => {
  let fx: Fixture;
  let tools: Map<string, AnyTool>;
  let bundleDir: string;
  let outside: string;

  async function call(name: string, input: unknown): Promise<string> {
    const tool = tools.get(name)!;
    return String(await tool.execute(tool.inputSchema.parse(input), ctx));
  }

  beforeEach(async () => {
    fx = await openFixture('files');
    tools = new Map(createDocumentTools(fx.documents, { silo: SILO }).map((tool) => [tool.name, tool]));
    bundleDir = join(fx.memoryDir, SILO, 'notes');
    outside = join(fx.dir, 'outside');
    await mkdir(bundleDir, { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.md'), 'the secret\n');
  });
  afterEach(async () => fx.close());

  it('refuses to read a document that is a symbolic link to a file outside the silo, naming where it leads', async () => {
    await symlink(join(outside, 'secret.md'), join(bundleDir, 'secret.md'));

    const attempt = call('memory_read', { bundle: 'notes', path: 'secret' });

    await expect(attempt).rejects.toBeInstanceOf(DocumentError);
    await expect(attempt).rejects.toThrow(`document notes/secret.md is refused: a symbolic link leads it to ${join(outside, 'secret.md')}, outside the silo's folder`);
  });

  it('refuses to write through a symbolic link to a folder outside the silo, and creates nothing there', async () => {
    await symlink(outside, join(bundleDir, 'linked'));

    const attempt = call('memory_write', { bundle: 'notes', path: 'linked/new', content: '# New\n', reason: 'r' });

    await expect(attempt).rejects.toThrow(/document notes\/linked\/new\.md is refused: a symbolic link leads it to .*outside/);
    await expect(readFile(join(outside, 'new.md'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to write through a dangling symbolic link that points outside the silo', async () => {
    await symlink(join(outside, 'planted.md'), join(bundleDir, 'planted.md'));

    await expect(call('memory_write', { bundle: 'notes', path: 'planted', content: '# Planted\n', reason: 'r' })).rejects.toThrow(/is refused: a symbolic link leads it/);
    await expect(readFile(join(outside, 'planted.md'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to delete a document whose folder was replaced by a symbolic link out of the silo, and deletes nothing there', async () => {
    await call('memory_write', { bundle: 'notes', path: 'people/ada', content: '# Ada\n', reason: 'r' });
    await rm(join(bundleDir, 'people'), { recursive: true });
    await writeFile(join(outside, 'ada.md'), 'not yours\n');
    await symlink(outside, join(bundleDir, 'people'));

    await expect(call('memory_delete', { bundle: 'notes', path: 'people/ada', reason: 'r' })).rejects.toThrow(/document notes\/people\/ada\.md is refused: a symbolic link leads it/);
    expect(await readFile(join(outside, 'ada.md'), 'utf8')).toBe('not yours\n');
  });

  it('lists the other documents and reports the one a symbolic link leads out of the silo as a problem', async () => {
    await call('memory_write', { bundle: 'notes', path: 'ada', content: '# Ada\n', reason: 'r' });
    await call('memory_write', { bundle: 'notes', path: 'bob', content: '# Bob\n', reason: 'r' });
    await rm(join(bundleDir, 'bob.md'));
    await symlink(join(outside, 'secret.md'), join(bundleDir, 'bob.md'));

    const listed = await fx.documents.list(SILO, 'notes');

    expect(listed.problems).toEqual([expect.stringMatching(/^document notes\/bob\.md is refused: a symbolic link leads it/)]);
    expect(listed.documents.map((document) => document.path)).toContain('ada.md');
  });

  it('still reads a document through a symbolic link that stays inside the silo', async () => {
    await call('memory_write', { bundle: 'notes', path: 'ada', content: '# Ada\nLikes tea.\n', reason: 'r' });
    await symlink(join(bundleDir, 'ada.md'), join(bundleDir, 'alias.md'));

    expect(await call('memory_read', { bundle: 'notes', path: 'alias' })).toContain('Likes tea.');
  });
});
