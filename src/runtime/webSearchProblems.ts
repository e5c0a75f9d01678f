import type { AgentDefinition, SyndicateDefinition } from '../config/definition.js';
import type { ConfigIssue } from '../config/errors.js';
import { COLLECTIONS_SEARCH_TOOL, GENERATE_IMAGE_TOOL, WEB_SEARCH_TOOL, X_SEARCH_TOOL } from '../config/builtinToolNames.js';
import { imageModelProblem } from '../models/imageModels.js';
import { webSearchProblem } from '../models/webSearch.js';
import { readXaiSearchEnv, xaiToolProblem } from '../models/xaiSearch.js';
import { builtinTools, type ToolRegistry } from '../tools/registry.js';
import { agentModel, DEFAULT_ROOT_MODEL, modelFamily, modelInheritedFrom, type AgentModel, type ModelChoice } from './agentModel.js';

// Provider search tools are refused where they would silently do nothing or fail at the first
// call. The check runs on the agent tree, not in the loader, because only here is the model each
// agent runs on known: inherited across mounted files, or replaced by an override. Issues carry
// a field path but no line.

export interface WebSearchCheckOptions extends ModelChoice {
  tools?: ToolRegistry;
  env?: NodeJS.ProcessEnv;
}

interface PlacedAgent {
  agent: AgentDefinition;
  model: AgentModel;
  /** Where the agent sits in its own file: `orchestrator` or `subagents[i]`. */
  path: string;
}

/** Every agent with the model it runs on, in tree order: the root first, each agent before its subagents. */
export function placedAgents(definition: SyndicateDefinition, options: ModelChoice): PlacedAgent[] {
  const placed: PlacedAgent[] = [];
  const visit = (agent: AgentDefinition, inherited: AgentModel, path: string): void => {
    placed.push({ agent, model: agentModel(agent, inherited, options), path });
    agent.subagents.forEach((sub, i) => visit(sub, modelInheritedFrom(agent, inherited), sub.file === agent.file ? `subagents[${i}]` : 'orchestrator'));
  };
  visit(definition.root, modelInheritedFrom(definition.root, DEFAULT_ROOT_MODEL), 'orchestrator');
  return placed;
}

export function webSearchProblems(definition: SyndicateDefinition, options: WebSearchCheckOptions = {}): ConfigIssue[] {
  const registered = (options.tools ?? builtinTools).has(WEB_SEARCH_TOOL);
  const issues: ConfigIssue[] = [];
  let xaiEnvChecked = false;
  for (const { agent, model: modelId, path } of placedAgents(definition, options)) {
    // A model object given in code has no provider Syndicate knows: nothing to check against.
    if (typeof modelId !== 'string') continue;
    const ownSearch = registered || agent.customTools.some((tool) => tool.name === WEB_SEARCH_TOOL);
    const xaiTools = ownSearch ? [X_SEARCH_TOOL, COLLECTIONS_SEARCH_TOOL] : [WEB_SEARCH_TOOL, X_SEARCH_TOOL, COLLECTIONS_SEARCH_TOOL];
    const issue = (index: number, message: string): ConfigIssue => ({ file: agent.file, line: 0, column: 0, path: `${path}.tools[${index}]`, message: `agent '${agent.name}' ${message}` });
    const index = agent.tools.indexOf(WEB_SEARCH_TOOL);
    // A registered tool of that name is the program's own search, which runs on any model.
    if (index >= 0 && !ownSearch) {
      // A dispatching agent is offered no tools, so nothing competes with the search there.
      const withOtherTools = agent.dispatch === undefined && (agent.subagents.length > 0 || agent.tools.length > 1);
      const problem = webSearchProblem(modelId, withOtherTools);
      if (problem) issues.push(issue(index, problem));
    }
    const imageIndex = agent.tools.indexOf(GENERATE_IMAGE_TOOL);
    const imageProblem = imageIndex >= 0 ? imageModelProblem(modelId) : undefined;
    if (imageProblem) issues.push(issue(imageIndex, imageProblem));
    if (modelFamily(modelId) !== 'xai') continue;
    const searches = agent.tools.map((tool, i) => [tool, i] as const).filter(([tool]) => xaiTools.includes(tool));
    if (searches.length === 0) continue;
    const { settings, problems } = readXaiSearchEnv(options.env ?? process.env);
    // The environment is one for every agent: its problems are reported once, at the first agent that reads it.
    if (!xaiEnvChecked) issues.push(...problems.map((problem) => issue(searches[0]?.[1] ?? 0, `searches on xAI, but ${problem}`)));
    xaiEnvChecked = true;
    for (const [tool, i] of searches) {
      const problem = xaiToolProblem(tool, settings);
      if (problem) issues.push(issue(i, problem));
    }
  }
  return issues;
}
