import { describe, expect, it } from 'vitest';
import { defaultDataDir, defaultDbPath } from '../../src/store/location.js';

describe('defaultDataDir', () => {
  it('uses SYNDICATE_HOME when it is set, on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(defaultDataDir({ SYNDICATE_HOME: '/srv/syndicate', HOME: '/home/ann' }, platform)).toBe('/srv/syndicate');
    }
  });

  it('ignores an empty SYNDICATE_HOME', () => {
    expect(defaultDataDir({ SYNDICATE_HOME: '', HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.local/share/syndicate');
  });

  it('uses XDG_DATA_HOME on Linux when it is absolute', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/data/ann', HOME: '/home/ann' }, 'linux')).toBe('/data/ann/syndicate');
  });

  it('falls back to ~/.local/share on Linux when XDG_DATA_HOME is unset or relative', () => {
    expect(defaultDataDir({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.local/share/syndicate');
    expect(defaultDataDir({ XDG_DATA_HOME: 'data', HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.local/share/syndicate');
  });

  it('uses ~/Library/Application Support on macOS', () => {
    expect(defaultDataDir({ HOME: '/Users/ann' }, 'darwin')).toBe('/Users/ann/Library/Application Support/syndicate');
  });

  it('uses %APPDATA% on Windows, else the roaming profile folder', () => {
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32')).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\syndicate',
    );
    expect(defaultDataDir({ USERPROFILE: 'C:\\Users\\ann' }, 'win32')).toBe('C:\\Users\\ann\\AppData\\Roaming\\syndicate');
  });
});

describe('defaultDbPath', () => {
  it('is syndicate.db inside the data directory', () => {
    expect(defaultDbPath({ SYNDICATE_HOME: '/srv/syndicate' }, 'linux')).toBe('/srv/syndicate/syndicate.db');
    expect(defaultDbPath({ APPDATA: 'C:\\Roaming' }, 'win32')).toBe('C:\\Roaming\\syndicate\\syndicate.db');
  });
});
