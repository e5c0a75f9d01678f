import { fileAgents } from './checks.js';
import { issueFromProblem, type ConfigIssue } from './errors.js';
import type { LoadedFile } from './loadFile.js';
import { routeKey } from './routes.js';

/** Names must be unique across the whole tree, compared the way routes are (ignoring case and punctuation). */
export function duplicateNameIssues(root: LoadedFile): ConfigIssue[] {
  const firstSeen = new Map<string, { name: string; at: string }>();
  const issues: ConfigIssue[] = [];
  const visit = (loaded: LoadedFile, isMounted: boolean): void => {
    // A mounted file's orchestrator takes the name of the entry that mounts it.
    const agents = fileAgents(loaded.data).filter(({ path }) => !(isMounted && path[0] === 'orchestrator'));
    for (const { path, fields } of agents) {
      const name = fields['name'];
      if (typeof name !== 'string') continue;
      const namePath = [...path, 'name'];
      const position = loaded.yaml.locate(namePath);
      const first = firstSeen.get(routeKey(name));
      if (first === undefined) {
        firstSeen.set(routeKey(name), { name, at: `${loaded.display}:${position.line}:${position.column}` });
        continue;
      }
      const message = `agent name '${name}' is already used by '${first.name}' at ${first.at} — names must be unique across the whole tree (ignoring case and punctuation)`;
      issues.push(issueFromProblem(loaded.display, position, { path: namePath, message }));
    }
    for (const mounted of loaded.mounts.values()) visit(mounted, true);
  };
  visit(root, false);
  return issues;
}
