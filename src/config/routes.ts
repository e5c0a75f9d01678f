// Route names match agent names ignoring case and punctuation, so `drafter_agent` reaches `DrafterAgent`.

export function routeKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The declared name a route refers to, if any. */
export function findRoute(route: string, names: readonly string[]): string | undefined {
  const key = routeKey(route);
  return names.find((name) => routeKey(name) === key);
}

/** Route override patterns match case-insensitively unless the file gives its own flags. */
export const DEFAULT_ROUTE_FLAGS = 'i';
