import type { AnyTool } from '../core/tool.js';
import type { CompiledAgent, CompiledSyndicate } from './compileSyndicate.js';

// Work a tool starts that outlives the tool call (background subagent jobs). The scheduler layer
// implements it (scheduler/jobs) and a face passes it in as RunTurnOptions.background, so the
// runtime never imports the layer above it.

/** The run a background tool is offered to. */
export interface BackgroundRun {
  syndicate: CompiledSyndicate;
  /** undefined when the turn keeps no session: a job then has nowhere to report, and its tools say so. */
  sessionId: string | undefined;
  agent: CompiledAgent;
}

export interface BackgroundCapability {
  /** The background tools (config/backgroundTools.ts) bound to this run, by name. */
  tools(run: BackgroundRun): ReadonlyMap<string, AnyTool>;
}
