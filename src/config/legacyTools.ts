// Tool names melchizedek-agents files use that have a newer name here. They load as the new
// name, and each use is reported as a warning naming it, so a file can be updated at leisure.

const LEGACY_TOOL_NAMES: Readonly<Record<string, string>> = {
  // ADK's built-in; melchizedek-agents documents it as "legacy alias; use web_search".
  google_search: 'web_search',
};

export const LEGACY_TOOLS: readonly string[] = Object.keys(LEGACY_TOOL_NAMES);

export function currentToolName(name: string): string {
  return LEGACY_TOOL_NAMES[name] ?? name;
}
