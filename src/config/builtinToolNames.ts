// The built-in tool names a syndicate file may list in `tools:`. The loader validates files
// without loading the tools themselves (tools/ sits above config/); test/tools/registry.test.ts
// checks this list against the registry's tools.

export const BUILTIN_TOOL_NAMES: readonly string[] = ['calculator', 'current_time', 'text_stats', 'ask_user', 'web_extract', 'write_tmp', 'append_tmp', 'read_tmp'];

/** No local tool: it turns on the provider's own search (see models/webSearch.ts). */
export const WEB_SEARCH_TOOL = 'web_search';

/** xAI's own searches on grok-* models (see models/xaiSearch.ts); inert on other models. */
export const X_SEARCH_TOOL = 'x_search';
export const COLLECTIONS_SEARCH_TOOL = 'collections_search';
export const XAI_ONLY_TOOLS: readonly string[] = [X_SEARCH_TOOL, COLLECTIONS_SEARCH_TOOL];

/** Built in, but compiled per agent (they need its provider and the outputs folder): see tools/images/. */
export const GENERATE_IMAGE_TOOL = 'generate_image';
export const INSPECT_IMAGE_TOOL = 'inspect_image';
export const IMAGE_TOOLS: readonly string[] = [GENERATE_IMAGE_TOOL, INSPECT_IMAGE_TOOL];
