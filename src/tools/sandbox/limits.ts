// What one script may use. QuickJS runs inside WebAssembly with no host objects but the ones we
// pass in, so these bound what a script can do to the process: CPU, memory, calls out, output.

export interface SandboxLimits {
  /** Time spent running the script's own code (waiting for tools does not count). */
  cpuMs: number;
  /** The QuickJS heap. */
  memoryBytes: number;
  /**
   * The interpreter's stack: deep recursion fails with "stack overflow". The WebAssembly frames
   * behind it run on Node's own stack, so this stays far below it: at 512 KiB a recursion
   * overflowed Node's stack first and left the runtime corrupt; 128 KiB (~680 frames) held with
   * the host already 4,000 frames deep.
   */
  stackBytes: number;
  /** Tool function calls per script. */
  hostCalls: number;
  /** Characters of console output plus the JSON of the script's result. */
  outputChars: number;
  /** Characters of the JSON input of one tool function call. */
  inputChars: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuMs: 2_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 128 * 1024,
  hostCalls: 100,
  outputChars: 64_000,
  inputChars: 256_000,
};
