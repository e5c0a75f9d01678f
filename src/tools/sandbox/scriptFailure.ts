// Why a script failed, in words a model can act on: what went wrong and on which line of its code.

export type ScriptFailureKind = 'syntax' | 'exception' | 'timeout' | 'memory' | 'host-calls' | 'output' | 'stalled' | 'cancelled';

export interface ScriptFailure {
  kind: ScriptFailureKind;
  message: string;
  /** 1-based, in the code as the model wrote it; undefined when QuickJS gave no position. */
  line?: number;
  /** That line's text, trimmed. */
  source?: string;
}

const LINE_PREVIEW = 120;
const POSITION = /script\.js:(\d+)(?::(\d+))?/;

interface ErrorDump {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  lineNumber?: unknown;
}

function lineOf(error: ErrorDump | undefined): number | undefined {
  if (!error) return undefined;
  if (typeof error.stack === 'string') {
    const match = POSITION.exec(error.stack);
    if (match) return Number(match[1]);
  }
  return typeof error.lineNumber === 'number' ? error.lineNumber : undefined;
}

function asDump(error: unknown): ErrorDump | undefined {
  return typeof error === 'object' && error !== null ? (error as ErrorDump) : undefined;
}

function errorLine(error: unknown): string {
  const dump = asDump(error);
  if (!dump) return `uncaught ${JSON.stringify(error) ?? String(error)}`;
  const name = typeof dump.name === 'string' ? dump.name : 'Error';
  return typeof dump.message === 'string' ? `${name}: ${dump.message}` : name;
}

/**
 * `message` is the sandbox's own words for a limit; for a syntax error or an exception the
 * script's error speaks. An out-of-memory exception is the memory limit, however it surfaced.
 */
export function describeFailure(kind: ScriptFailureKind, message: string, error: unknown, code: string, memoryBytes: number): ScriptFailure {
  const dump = asDump(error);
  const outOfMemory = kind === 'exception' && dump?.name === 'InternalError' && dump.message === 'out of memory';
  const failure: ScriptFailure = outOfMemory
    ? { kind: 'memory', message: `the script used more than ${Math.round(memoryBytes / (1024 * 1024))} MiB of memory` }
    : { kind, message: kind === 'syntax' || kind === 'exception' ? errorLine(error) : message };
  const lines = code.split('\n');
  const line = lineOf(dump);
  if (line !== undefined && line >= 1 && line <= lines.length) {
    failure.line = line;
    failure.source = lines[line - 1]!.trim().slice(0, LINE_PREVIEW);
  }
  return failure;
}
