import { describe, expect, it } from 'vitest';
import { mintApiKey, parseApiKey, secretMatches } from '../../../src/server/auth/apiKey.js';

describe('API keys', () => {
  it('a minted key parses back to its id, and its secret matches the stored hash', () => {
    const minted = mintApiKey();

    const parsed = parseApiKey(minted.key);

    expect(parsed?.id).toBe(minted.id);
    expect(secretMatches(parsed!.secret, minted)).toBe(true);
  });

  it('the stored hash does not contain the secret', () => {
    const minted = mintApiKey();

    expect(minted.hash).not.toContain(parseApiKey(minted.key)!.secret);
  });

  it('another secret does not match', () => {
    const minted = mintApiKey();
    const other = parseApiKey(mintApiKey().key)!;

    expect(secretMatches(other.secret, minted)).toBe(false);
  });

  it('text not shaped like a key does not parse', () => {
    expect(parseApiKey('Bearer nonsense')).toBeUndefined();
    expect(parseApiKey(`${mintApiKey().key}x`)).toBeUndefined();
  });
});
