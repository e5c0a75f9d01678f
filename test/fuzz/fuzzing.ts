import { pick, seeded } from '../../bench/memoryData.js';

// Seeded fuzzing: the same fixed seed on every run, plus one drawn for this run (printed in the
// test name on failure); FUZZ_SEED=<n> replays a run.

const FIXED_SEED = 16_2026;

export function fuzzSeeds(env: NodeJS.ProcessEnv = process.env): number[] {
  const run = env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(env.FUZZ_SEED);
  return [FIXED_SEED, run];
}

export type Random = () => number;

export { pick, seeded };

export function between(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

// Characters and fragments that matter to YAML and JSON parsers.
const FRAGMENTS = [
  ':', ': ', '-', '- ', '&a ', '*a', '*b', '!!set ', '!!binary ', '!!omap ', '!custom ', '<<: ', '? ', '{', '}', '[', ']', ',', '"', "'", '#', '|', '>', '%YAML 1.1\n', '---\n', '...\n',
  '\n', '\n  ', '\t', ' ', '@', '`', '\\', '\\u0000', '\u0000', '\ufeff', '\ud800', 'é', '{{x}}', '{{', '}}', 'null', 'true', '~', '0x1F', '1e999', '-0', 'NaN', '.inf', '"\\x"',
];

/** `text` with a few random edits: cut, insert a fragment, duplicate or move a line, re-indent. */
export function mutate(random: Random, text: string): string {
  let out = text;
  for (let edits = between(random, 1, 4); edits > 0; edits--) {
    const at = between(random, 0, out.length);
    const kind = between(random, 0, 4);
    if (kind === 0) out = out.slice(0, at) + out.slice(Math.min(out.length, at + between(random, 1, 40)));
    else if (kind === 1) out = out.slice(0, at) + pick(random, FRAGMENTS) + out.slice(at);
    else {
      const lines = out.split('\n');
      const index = between(random, 0, lines.length - 1);
      const line = lines[index]!;
      if (kind === 2) lines.splice(between(random, 0, lines.length), 0, line);
      else if (kind === 3) {
        lines.splice(index, 1);
        lines.splice(between(random, 0, lines.length), 0, line);
      } else lines[index] = ' '.repeat(between(random, 0, 6)) + line.trimStart();
      out = lines.join('\n');
    }
  }
  return out;
}
