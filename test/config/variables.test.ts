import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PER_TURN_VARIABLES, loadSyndicate, parseBindings, renderTurnVariables } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

function fixture(yaml: string): string {
  return path.join(writeFixture({ 'syndicate.yaml': yaml }), 'syndicate.yaml');
}

describe('variables', () => {
  it('gives a value that is exactly one placeholder the type of the bound value', () => {
    const file = fixture(
      syndicateYaml({
        extra: ['max_steps: "{{ steps }}"', 'variables:', '  temp: 0.2', '  steps: 7'],
        orchestrator: ['  generateContentConfig:', '    temperature: "{{temp}}"'],
      }),
    );

    const syndicate = loadSyndicate(file);

    expect(syndicate.root.generateContentConfig.temperature).toBe(0.2);
    expect(syndicate.maxSteps).toBe(7);
  });

  it('substitutes placeholders inside longer text as text', () => {
    const file = fixture(syndicateYaml({ extra: ['variables:', '  audience: engineers'], orchestrator: ['  globalInstruction: "Write for {{audience}}."'] }));

    expect(loadSyndicate(file).root.globalInstruction).toBe('Write for engineers.');
  });

  it('reports an unresolved placeholder with its position and how to fix it', () => {
    const file = fixture(syndicateYaml({ orchestrator: ['  globalInstruction: |', '    Be kind.', '    Write for {{audience}}.'] }));

    expect(issuesOf(file)).toEqual([
      {
        file,
        line: 8,
        column: 15,
        path: 'orchestrator.globalInstruction',
        message: 'unresolved variable {{audience}} — add it under variables: or pass --bind audience=...',
      },
    ]);
  });

  it('lets bindings override the values under variables:', () => {
    const file = fixture(syndicateYaml({ extra: ['variables:', '  audience: engineers'], orchestrator: ['  globalInstruction: "For {{audience}}."'] }));

    const syndicate = loadSyndicate(file, { bindings: { audience: 'lawyers' } });

    expect(syndicate.root.globalInstruction).toBe('For lawyers.');
    expect(syndicate.variables).toEqual({ audience: 'lawyers' });
  });

  it('leaves {{current_date}} and {{current_time}} for the runtime to fill each turn', () => {
    const file = fixture(syndicateYaml({ orchestrator: ['  globalInstruction: "Today is {{current_date}}, now {{ current_time }}."'] }));

    expect(loadSyndicate(file).root.globalInstruction).toBe('Today is {{current_date}}, now {{ current_time }}.');
    expect([...PER_TURN_VARIABLES]).toEqual(['current_date', 'current_time']);
  });

  it('renders the per-turn placeholders from a given moment in UTC', () => {
    const now = new Date('2026-03-04T23:30:00.000Z');

    expect(renderTurnVariables('{{current_date}} at {{ current_time }}; {{audience}}', now)).toBe('2026-03-04 at 2026-03-04T23:30:00.000Z; {{audience}}');
  });

  it('refuses a per-turn name declared under variables:', () => {
    const file = fixture(syndicateYaml({ extra: ['variables:', '  current_date: "2020-01-01"'] }));

    expect(issuesOf(file)).toMatchObject([{ line: 3, column: 3, path: 'variables.current_date' }]);
  });
});

describe('parseBindings', () => {
  it('parses numbers and booleans from --bind text and keeps other text as strings', () => {
    expect(parseBindings(['temp=0.2', 'verbose=true', 'id=007', 'note=a=b'])).toEqual({ temp: 0.2, verbose: true, id: '007', note: 'a=b' });
  });

  it('lets --bind win over the bindings file', () => {
    const file = path.join(writeFixture({}), 'bindings.json');
    writeFileSync(file, JSON.stringify({ audience: 'engineers', temp: 0.5 }));

    expect(parseBindings(['audience=lawyers'], file)).toEqual({ audience: 'lawyers', temp: 0.5 });
  });

  it('refuses a --bind argument without a name', () => {
    expect(() => parseBindings(['=3'])).toThrow("--bind expects name=value with a name of letters, digits and _, got '=3'");
  });

  it('refuses a bindings file that is not flat', () => {
    const file = path.join(writeFixture({}), 'bindings.json');
    writeFileSync(file, JSON.stringify({ nested: { a: 1 } }));

    expect(() => parseBindings([], file)).toThrow("'nested' must be a string, number or boolean");
  });
});
