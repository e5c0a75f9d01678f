import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/config/builtinToolNames.js';
import { builtinTools } from '../../src/tools/registry.js';

describe('built-in tool registry', () => {
  it('holds exactly the built-in tools the syndicate loader accepts', () => {
    expect([...builtinTools.keys()].sort()).toEqual([...BUILTIN_TOOL_NAMES].sort());
  });
});
