import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

const APP_DIR = 'syndicate';

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Where syndicate keeps its data: SYNDICATE_HOME when set, else the platform's per-user data
 * directory (XDG_DATA_HOME or ~/.local/share on Linux and other Unixes, ~/Library/Application
 * Support on macOS, %APPDATA% on Windows).
 */
export function defaultDataDir(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = nonEmpty(env.SYNDICATE_HOME);
  if (override !== undefined) return override;
  if (platform === 'win32') {
    const home = nonEmpty(env.USERPROFILE) ?? homedir();
    return win32.join(nonEmpty(env.APPDATA) ?? win32.join(home, 'AppData', 'Roaming'), APP_DIR);
  }
  const home = nonEmpty(env.HOME) ?? homedir();
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', APP_DIR);
  // The XDG spec says to ignore a relative XDG_DATA_HOME.
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  const dataHome = xdg !== undefined && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.local', 'share');
  return posix.join(dataHome, APP_DIR);
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** Whether the store is named by a postgres:// or postgresql:// URL (anything else is a SQLite path). */
export function isPostgresUrl(target: string): boolean {
  return POSTGRES_URL.test(target);
}

export function defaultDbPath(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
  const join = platform === 'win32' ? win32.join : posix.join;
  return join(defaultDataDir(env, platform), 'syndicate.db');
}
