import { gzipSync } from 'node:zlib';

// Writes .tgz archives byte by byte, so tests can make the ones no honest tool would: links,
// absolute paths, '..', devices.

export interface TarEntrySpec {
  path: string;
  /** Tar type flag: '0' file (the default), '5' folder, '1' hard link, '2' symbolic link, '3' device... */
  type?: string;
  content?: string | Buffer;
  link?: string;
}

function field(block: Buffer, start: number, length: number, value: string): void {
  block.write(value.slice(0, length), start, length, 'utf8');
}

function header(spec: TarEntrySpec, size: number): Buffer {
  const block = Buffer.alloc(512);
  field(block, 0, 100, spec.path);
  field(block, 100, 8, '0000644\0');
  field(block, 108, 8, '0000000\0');
  field(block, 116, 8, '0000000\0');
  field(block, 124, 12, `${size.toString(8).padStart(11, '0')}\0`);
  field(block, 136, 12, '00000000000\0');
  field(block, 156, 1, spec.type ?? '0');
  field(block, 157, 100, spec.link ?? '');
  field(block, 257, 8, 'ustar\x0000');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

export function tarball(entries: readonly TarEntrySpec[]): Buffer {
  const blocks: Buffer[] = [];
  for (const spec of entries) {
    const content = typeof spec.content === 'string' ? Buffer.from(spec.content) : (spec.content ?? Buffer.alloc(0));
    blocks.push(header(spec, content.length), content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
