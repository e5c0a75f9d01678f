import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { agentIdFor } from '../../a2a/createA2aApp.js';
import { formatIssue, SyndicateConfigError } from '../../config/errors.js';
import { loadSyndicate } from '../../config/loadSyndicate.js';
import { loadProjectConfig } from '../../config/projectConfig.js';
import type { Platform } from '../../platform/createPlatform.js';
import type { LoadFailure, LoadedSyndicate, SyndicateEntry, SyndicateRegistry } from '../context.js';

// The syndicates `syndicate serve` serves, one per YAML file, each reloaded when its file changes.
// A change is compiled at once and used from the next turn on (a running turn keeps the version it
// started with); an invalid change keeps the previous version serving and is shown as `error`.

const YAML_EXTENSIONS: ReadonlySet<string> = new Set(['.yaml', '.yml']);
// Editors write a file in several steps (truncate, write, rename): one reload after they settle.
const DEFAULT_DEBOUNCE_MS = 100;

export interface LoadSyndicatesOptions {
  platform: Platform;
  warn: (message: string) => void;
  /** Every agent on the scripted model (--offline). */
  offline: boolean;
  /** Reload files when they change on disk; true by default. */
  watch?: boolean;
  debounceMs?: number;
}

export interface WatchedSyndicateRegistry extends SyndicateRegistry {
  /** Reloads one file now (what the watcher does after a change). */
  reload(file: string): void;
  /** Calls `listener` after each load that compiled (an invalid file calls nothing: its previous version keeps serving). */
  onLoaded(listener: (loaded: LoadedSyndicate) => void): void;
  /** Stops watching. Compiled versions close with the platform (a turn may still use an old one). */
  close(): Promise<void>;
}

function isYaml(file: string): boolean {
  // examples/<name>.script.yaml are scripted-model steps beside an example, not syndicates.
  return YAML_EXTENSIONS.has(extname(file).toLowerCase()) && !file.endsWith('.script.yaml');
}

function yamlFilesIn(folder: string): string[] {
  return readdirSync(folder)
    .filter(isYaml)
    .sort()
    .map((name) => join(folder, name));
}

function failureOf(file: string, error: unknown): LoadFailure {
  if (error instanceof SyndicateConfigError) {
    const first = error.issues[0];
    return {
      message: error.issues.map(formatIssue).join('\n'),
      file: first?.file ?? file,
      line: first !== undefined && first.line > 0 ? first.line : undefined,
      column: first !== undefined && first.line > 0 ? first.column : undefined,
      at: Date.now(),
    };
  }
  // Every message starts with where the problem is, as a config error's issues do.
  return { message: `${file}: ${error instanceof Error ? error.message : String(error)}`, file, at: Date.now() };
}

/** Folders give their *.yaml / *.yml files; a missing path is an error the caller shows. */
export function syndicateFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    if (!existsSync(path)) throw new Error(`${path}: no such file or folder; name syndicate files or folders that hold them`);
    files.push(...(statSync(path).isDirectory() ? yamlFilesIn(path) : [path]));
  }
  return [...new Set(files.map((file) => resolve(file)))];
}

export function loadSyndicates(paths: readonly string[], options: LoadSyndicatesOptions): WatchedSyndicateRegistry {
  const { platform, warn } = options;
  const providers = loadProjectConfig().providers;
  const entries = new Map<string, SyndicateEntry>();
  const listeners: Array<(loaded: LoadedSyndicate) => void> = [];

  const compile = (file: string): LoadedSyndicate => {
    const definition = loadSyndicate(file);
    const compiled = platform.compile(definition, { offline: options.offline, providers });
    const warnings = [...definition.warnings.map(formatIssue), ...compiled.warnings];
    return { id: agentIdFor(compiled.name), name: compiled.name, file, definition, compiled, warnings, loadedAt: Date.now() };
  };

  const load = (file: string): void => {
    const entry = entries.get(file) ?? { id: agentIdFor(basename(file, extname(file))), file, current: undefined, error: undefined };
    entries.set(file, entry);
    let loaded: LoadedSyndicate;
    try {
      loaded = compile(file);
      const clash = [...entries.values()].find((other) => other !== entry && other.id === loaded.id);
      if (clash) throw new Error(`the syndicate '${loaded.name}' has the id '${loaded.id}' of ${clash.file}; rename one (syndicate_name)`);
      // The previous version's connections close with the platform: a turn may still be using it.
      entry.current = loaded;
      entry.id = loaded.id;
      entry.error = undefined;
      for (const warning of loaded.warnings) warn(`warning: ${warning}`);
    } catch (error) {
      entry.error = failureOf(file, error);
      warn(`error: ${entry.error.message}${entry.current ? ' (the previous version keeps serving)' : ''}`);
      return;
    }
    for (const listener of listeners) listener(loaded);
  };

  const files = syndicateFiles(paths);
  for (const file of files) load(file);

  const watchers: FSWatcher[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  const soon = (file: string): void => {
    clearTimeout(timers.get(file));
    timers.set(
      file,
      setTimeout(() => {
        timers.delete(file);
        if (isYaml(file) && (entries.has(file) || existsSync(file))) load(file);
      }, options.debounceMs ?? DEFAULT_DEBOUNCE_MS),
    );
  };
  if (options.watch ?? true) {
    // Folders are watched (not their files), so a file replaced by rename, or added, is seen.
    const folders = new Set<string>();
    for (const path of paths) folders.add(statSync(path).isDirectory() ? resolve(path) : resolve(path, '..'));
    const served = new Set(files);
    const fromFolder = new Set(paths.filter((path) => statSync(path).isDirectory()).map((path) => resolve(path)));
    for (const folder of folders) {
      const watcher = watch(folder, (_event, name) => {
        if (name === null) return;
        const file = join(folder, name.toString());
        if (served.has(file) || fromFolder.has(folder)) soon(file);
      });
      watcher.on('error', (error) => warn(`warning: stopped watching ${folder} for changes: ${error.message}`));
      watchers.push(watcher);
    }
  }

  return {
    list: () => [...entries.values()],
    get: (id) => [...entries.values()].find((entry) => entry.id === id),
    reload: load,
    onLoaded: (listener) => void listeners.push(listener),
    async close() {
      for (const watcher of watchers) watcher.close();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
