import type { AgentDefinition, SyndicateDefinition } from '../config/definition.js';
import type { ConfigIssue } from '../config/errors.js';
import { WEB_SEARCH_TOOL } from '../config/builtinToolNames.js';
import { webSearchProblem } from '../models/webSearch.js';
import { builtinTools, type ToolRegistry } from '../tools/registry.js';
import { agentModelId, DEFAULT_ROOT_MODEL, modelInheritedFrom, type ModelChoice } from './agentModel.js';

// web_search is refused where it would silently do nothing. The check runs on the agent tree,
// not in the loader, because only here is the model each agent runs on known: inherited across
// mounted files, or replaced by an override. Issues carry a field path but no line.

export interface WebSearchCheckOptions extends ModelChoice {
  tools?: ToolRegistry;
}

export function webSearchProblems(definition: SyndicateDefinition, options: WebSearchCheckOptions = {}): ConfigIssue[] {
  // A registered tool of that name is the program's own search, which runs on any model.
  if ((options.tools ?? builtinTools).has(WEB_SEARCH_TOOL)) return [];
  const issues: ConfigIssue[] = [];
  const visit = (agent: AgentDefinition, inherited: string, path: string): void => {
    const index = agent.tools.indexOf(WEB_SEARCH_TOOL);
    if (index >= 0) {
      // A dispatching agent is offered no tools, so nothing competes with the search there.
      const withOtherTools = agent.dispatch === undefined && (agent.subagents.length > 0 || agent.tools.length > 1);
      const problem = webSearchProblem(agentModelId(agent, inherited, options), withOtherTools);
      if (problem) issues.push({ file: agent.file, line: 0, column: 0, path: `${path}.tools[${index}]`, message: `agent '${agent.name}' ${problem}` });
    }
    agent.subagents.forEach((sub, i) => visit(sub, modelInheritedFrom(agent, inherited), sub.file === agent.file ? `subagents[${i}]` : 'orchestrator'));
  };
  visit(definition.root, modelInheritedFrom(definition.root, DEFAULT_ROOT_MODEL), 'orchestrator');
  return issues;
}
