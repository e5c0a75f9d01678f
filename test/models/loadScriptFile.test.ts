import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../support/scratchDir.js';
import { describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../src/models/errors.js';
import { loadScriptFile } from '../../src/models/scripted/loadScriptFile.js';

function scriptFile(name: string, content: string): string {
  const path = join(scratchDir('script'), name);
  writeFileSync(path, content);
  return path;
}

describe('loadScriptFile', () => {
  it('reads a YAML file mapping agent names to steps', () => {
    const path = scriptFile('script.yaml', 'Skeptic:\n  - match: refund\n    reply: No refunds.\n  - tool_calls:\n      - tool: calculator\n');
    expect(loadScriptFile(path)).toEqual({
      Skeptic: [{ match: 'refund', reply: 'No refunds.' }, { tool_calls: [{ tool: 'calculator', args: {} }] }],
    });
  });

  it('reads a JSON file', () => {
    const path = scriptFile('script.json', '{"*": [{"error": "rate_limit"}, {"reply": "ok"}]}');
    expect(loadScriptFile(path)).toEqual({ '*': [{ error: 'rate_limit' }, { reply: 'ok' }] });
  });

  it('reports an invalid step naming the file, the agent key and the step', () => {
    const path = scriptFile('bad.yaml', 'Skeptic:\n  - reply: fine\n  - error: explode\n');
    expect(() => loadScriptFile(path)).toThrow(ModelConfigError);
    expect(() => loadScriptFile(path)).toThrow(new RegExp(`Invalid script file ${path}:\\n  agent "Skeptic" step 2 field error: `));
  });

  it('reports an unknown step field', () => {
    const path = scriptFile('typo.yaml', 'Advocate:\n  - replly: hi\n');
    expect(() => loadScriptFile(path)).toThrow(/agent "Advocate" step 1: Unrecognized key: "replly"/);
  });

  it('refuses a file that is not a mapping', () => {
    const path = scriptFile('list.yaml', '- reply: hi\n');
    expect(() => loadScriptFile(path)).toThrow(`Script file ${path} must map agent names (or "*") to lists of steps.`);
  });

  it('reports a missing file by its path', () => {
    expect(() => loadScriptFile('/nonexistent/script.yaml')).toThrow(/Cannot read script file \/nonexistent\/script\.yaml/);
  });
});
