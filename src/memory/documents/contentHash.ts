import { createHash } from 'node:crypto';

/** sha256 of the content's UTF-8 bytes, hex: how an edit made outside Syndicate is noticed. */
export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}
