import type { AnyTool } from '../core/tool.js';
import { askUser } from './builtin/askUser.js';
import { calculator } from './builtin/calculator.js';
import { currentTime } from './builtin/currentTime.js';
import { textStats } from './builtin/textStats.js';
import { webExtract } from './builtin/webExtract.js';
import { appendTmp, readTmp, writeTmp } from './builtin/scratchpad.js';

export type ToolRegistry = ReadonlyMap<string, AnyTool>;

export function createToolRegistry(tools: readonly AnyTool[]): ToolRegistry {
  const registry = new Map<string, AnyTool>();
  for (const tool of tools) {
    if (registry.has(tool.name)) throw new Error(`tool '${tool.name}' is registered twice`);
    registry.set(tool.name, tool);
  }
  return registry;
}

export const builtinTools: ToolRegistry = createToolRegistry([calculator, currentTime, textStats, askUser, webExtract, writeTmp, appendTmp, readTmp]);
