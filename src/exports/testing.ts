// syndicate/testing: the deterministic, keyless, offline scripted model for users' own tests.

export { createScriptedModel } from '../models/scripted/createScriptedModel.js';
export type { ClassifierContext, ModelContext, NamedDescription } from '../models/context.js';
export type { ScriptStep } from '../config/schema.js';
export { collectTurn, type CollectedTurn } from '../runtime/collectTurn.js';
