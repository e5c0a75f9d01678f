export { loadSyndicate, type LoadSyndicateOptions } from './loadSyndicate.js';
export { SyndicateConfigError, formatIssue, type ConfigIssue } from './errors.js';
export { PER_TURN_VARIABLES, renderTurnVariables } from './variables.js';
export { parseBindings, parseBoundValue } from './bindings.js';
export { normalizeOutputSchema, type NormalizedOutputSchema } from './normalizeOutputSchema.js';
export { DEFAULT_ROUTE_FLAGS, findRoute, routeKey } from './routes.js';
export { closestMatch } from './suggest.js';
export * from './definition.js';
export * from './schema.js';
