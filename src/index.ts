// The public API of the `syndicate` package (package.json `exports`: "."). The optional or heavy
// parts have subpaths of their own (src/exports/): syndicate/a2a, /mcp, /sqlite, /postgres,
// /testing. Nothing else under dist/ is part of the contract.

export { loadSyndicate, type LoadSyndicateOptions } from './config/loadSyndicate.js';
export { defineAgent, defineSyndicate, type AgentFields } from './config/define.js';
export type { AgentDefinition, RemoteAgentSpec, SyndicateDefinition } from './config/definition.js';
export type { DispatchConfig, GenerateContentConfig, McpServerConfig, MemorySystem, ScriptStep, VariableValue } from './config/schema.js';
export { SyndicateConfigError, formatIssue, type ConfigIssue } from './config/errors.js';

export { defineTool, type AnyTool, type Tool, type ToolContext, type ToolResult } from './core/tool.js';
export type { SessionNotes } from './core/notes.js';
export { siloFor } from './core/silo.js';
export type {
  ModelCallDetails,
  ModelCallOutcome,
  ModelFinishReason,
  TurnEvent,
  TurnEventBody,
  TurnEventEnvelope,
  TurnEventOf,
  TurnEventType,
  TurnObserver,
  TurnStatus,
  UsageFigures,
} from './core/events.js';

export { compileSyndicate, type CompileOptions, type CompiledAgent, type CompiledSyndicate, type RemoteAgent, type RemoteAgentFactory } from './runtime/compileSyndicate.js';
export type { AgentModel, ModelChoice } from './runtime/agentModel.js';
export { runTurn, type RunTurnOptions } from './runtime/runTurn.js';
export { CancelReason, TurnError, type TurnErrorCode } from './runtime/errors.js';
export type { RetryPolicy } from './models/retry.js';
export { ModelConfigError } from './models/errors.js';
export { builtinTools, createToolRegistry, type ToolRegistry } from './tools/registry.js';

export { createPlatform, type A2aClientConfig, type FaceCompileOptions, type Platform, type PlatformConfig, type Recorder } from './platform/createPlatform.js';
export { openExistingStore, openStore } from './store/openStore.js';
export { parseStoreLocation, StoreLocationError, type StoreLocation } from './store/storeLocation.js';
export type { ReadEventsOptions, SessionRecord, Store, StoredEvent, UsageQuery, UsageRow } from './store/store.js';
