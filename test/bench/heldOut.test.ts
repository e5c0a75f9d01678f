import { describe, expect, it } from 'vitest';
import { heldOutSet } from '../../bench/memoryQuality/heldOut.js';
import type { BenchSet, BenchSilo, BenchStatement } from '../../bench/memoryQuality/benchSet.js';
import { assertSilo } from '../../src/core/silo.js';
import { FACT_TAGS } from '../../src/store/facts.js';

// The held-out memory benchmark set is only worth its scores if its truth is exact: these check
// the generator's invariants from the statements alone, independently of how it builds them.

const SEEDS = [1, 2, 20261202];
const sets = new Map<number, BenchSet>(SEEDS.map((seed) => [seed, heldOutSet(seed)]));
const setOf = (seed: number): BenchSet => sets.get(seed)!;
const allSilos = (): Array<[number, BenchSilo]> => SEEDS.flatMap((seed) => setOf(seed).silos.map((silo): [number, BenchSilo] => [seed, silo]));

const ASSERTING = new Set(['original', 'restatement', 'correction', 'sibling']);
const STOP = new Set(['that', 'this', 'with', 'from', 'have', 'just', 'what', 'when', 'about', 'there', 'they', 'them', 'then', 'been', 'into', 'your', 'mine', 'also', 'like', 'still', 'anyway', 'matters', 'record', 'know', 'sure', 'mentioned', 'note', 'self', 'random', 'story', 'long']);

/** Whether `text` says `value` as a whole phrase (so '20 dollars' is not found in '120 dollars'). */
function says(text: string, value: string): boolean {
  const escaped = value.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![a-z0-9])${escaped}(?![a-z0-9])`).test(text.toLowerCase());
}

const slotStatements = (silo: BenchSilo, slot: string): BenchStatement[] => silo.statements.filter((s) => s.truth.slot === slot);
const entityOf = (slot: string): string => slot.split('/')[0]!;

/** The values a slot's statements asserted, in order of first assertion. */
function assertedValues(statements: BenchStatement[]): string[] {
  return [...new Set(statements.filter((s) => ASSERTING.has(s.truth.role)).map((s) => s.truth.value))];
}

function contentWords(text: string, drop: string[]): Set<string> {
  let t = text.toLowerCase();
  for (const d of drop) t = t.replaceAll(d.toLowerCase(), ' ');
  return new Set(t.split(/[^a-z]+/).filter((w) => w.length >= 4 && !STOP.has(w)));
}

describe('the held-out memory benchmark set', () => {
  it('is the same set for the same seed and another set for another seed', () => {
    expect(heldOutSet(1)).toEqual(setOf(1));
    expect(heldOutSet(2).silos[0]!.statements).not.toEqual(setOf(1).silos[0]!.statements);
  });

  it('has 40 silos by default, each a valid silo id and none colliding', () => {
    for (const seed of SEEDS) {
      const ids = setOf(seed).silos.map((s) => s.silo);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      for (const id of ids) {
        assertSilo(id);
        expect(id).toMatch(/^heldout-.+--local$/);
      }
    }
    expect(heldOutSet(5, 3).silos).toHaveLength(3);
  });

  it('says things in order and asks about them after the last one', () => {
    for (const [, silo] of allSilos()) {
      const said = silo.statements.map((s) => Date.parse(s.saidAt));
      said.forEach((t, i) => {
        expect(Number.isNaN(t)).toBe(false);
        if (i > 0) expect(t).toBeGreaterThan(said[i - 1]!);
      });
      for (const q of silo.questions) expect(Date.parse(q.askedAt)).toBeGreaterThan(said.at(-1)!);
    }
  });

  it('gives every statement what remember accepts: text, a known tag and 1-5 lower-case keys', () => {
    const statements = allSilos().flatMap(([, silo]) => silo.statements);
    const malformed = statements.filter(
      (s) =>
        s.text.trim() === '' ||
        !FACT_TAGS.includes(s.tag) ||
        s.keys.length < 1 ||
        s.keys.length > 5 ||
        s.keys.some((k) => k !== k.toLowerCase().trim() || k === '') ||
        (s.subject === undefined) !== (s.attribute === undefined) ||
        !/^[a-z0-9-]+\/[a-z0-9-]+$/.test(s.truth.slot),
    );
    expect(malformed).toEqual([]);
    const hinted = statements.filter((s) => s.subject !== undefined).length / statements.length;
    expect(hinted).toBeGreaterThan(0.35);
    expect(hinted).toBeLessThan(0.65);
  });

  it('tags most corrections CORRECTION but not all of them', () => {
    const corrections = allSilos().flatMap(([, silo]) => silo.statements.filter((s) => s.truth.role === 'correction'));
    const tagged = corrections.filter((s) => s.tag === 'CORRECTION').length;
    expect(tagged / corrections.length).toBeGreaterThan(0.6);
    expect(tagged).toBeLessThan(corrections.length);
  });

  it('names the value a statement asserts in its text', () => {
    for (const [, silo] of allSilos()) {
      for (const s of silo.statements.filter((st) => st.truth.role !== 'filler')) {
        expect(says(s.text, s.truth.value), `${s.text} / ${s.truth.value}`).toBe(true);
      }
    }
  });

  it('starts every slot with its original, restates only the value standing then and corrects to a new one', () => {
    for (const [, silo] of allSilos()) {
      const standing = new Map<string, string>();
      for (const s of silo.statements) {
        const before = standing.get(s.truth.slot);
        const role = s.truth.role;
        if (role === 'original' || role === 'sibling' || role === 'filler' || role === 'lookalike') expect(before, s.truth.slot).toBeUndefined();
        if (role === 'restatement') expect(s.truth.value).toBe(before);
        if (role === 'correction') {
          expect(before).toBeDefined();
          expect(s.truth.value).not.toBe(before);
        }
        standing.set(s.truth.slot, s.truth.value);
      }
      for (const s of silo.statements.filter((st) => ['sibling', 'filler', 'lookalike'].includes(st.truth.role))) {
        expect(slotStatements(silo, s.truth.slot)).toHaveLength(1);
      }
    }
  });

  it("answers every question with its slot's last asserted value and lists the earlier ones as stale", () => {
    for (const [, silo] of allSilos()) {
      expect(new Set(silo.questions.map((q) => q.slot)).size).toBe(silo.questions.length);
      for (const q of silo.questions) {
        const statements = slotStatements(silo, q.slot);
        expect(statements.length, q.slot).toBeGreaterThan(0);
        const values = assertedValues(statements);
        expect(q.currentValue).toBe(statements.filter((s) => ASSERTING.has(s.truth.role)).at(-1)!.truth.value);
        expect(q.staleValues).toEqual(values.filter((v) => v !== q.currentValue));
        expect(says(q.question, q.currentValue), q.question).toBe(false);
        expect(silo.statements.some((s) => s.text === q.question)).toBe(false);
      }
    }
  });

  it('gives each question exactly the classes its statements show', () => {
    const slotSilos = new Map<string, Set<string>>();
    for (const [seed, silo] of allSilos()) {
      for (const s of silo.statements) slotSilos.set(`${seed}:${s.truth.slot}`, (slotSilos.get(`${seed}:${s.truth.slot}`) ?? new Set()).add(silo.silo));
    }
    for (const [seed, silo] of allSilos()) {
      for (const q of silo.questions) {
        const statements = slotStatements(silo, q.slot);
        const corrections = statements.filter((s) => s.truth.role === 'correction');
        const has = (c: string) => q.classes.includes(c as never);
        expect(has('corrected'), q.slot).toBe(corrections.length > 0);
        const namesOld = corrections.some((c) => {
          const earlier = assertedValues(statements.slice(0, statements.indexOf(c)));
          return earlier.some((v) => says(c.text, v));
        });
        expect(has('correction-names-old-value'), q.slot).toBe(namesOld);
        const lastCorrection = statements.lastIndexOf(corrections.at(-1)!);
        const restatedBefore = statements.some((s, i) => s.truth.role === 'restatement' && i < lastCorrection);
        expect(has('restated-before-correction'), q.slot).toBe(restatedBefore);
        const entity = entityOf(q.slot);
        const sibling = silo.statements.some((s) => ASSERTING.has(s.truth.role) && s.truth.slot !== q.slot && entityOf(s.truth.slot) === entity);
        expect(has('has-sibling'), q.slot).toBe(sibling);
        if (has('correction-reworded')) {
          const original = statements[0]!;
          const drop = [...assertedValues(statements), ...entity.split('-')];
          const words = contentWords(original.text, drop);
          const unlike = corrections.some((c) => [...contentWords(c.text, drop)].every((w) => !words.has(w)));
          expect(unlike, `${q.slot}: ${corrections.map((c) => c.text).join(' | ')} vs ${original.text}`).toBe(true);
        }
        if (has('has-lookalike')) {
          const values = [q.currentValue, ...q.staleValues];
          const inSilo = silo.statements.some((s) => s.truth.role === 'lookalike' && values.some((v) => says(s.text, v)));
          const elsewhere = slotSilos.get(`${seed}:${q.slot}`)!.size > 1;
          expect(inSilo || elsewhere, q.slot).toBe(true);
        }
      }
    }
  });

  it('is large and hard enough: 400+ questions, 35%+ corrected, 100+ restatements, 40+ lookalikes', () => {
    for (const seed of SEEDS) {
      const silos = setOf(seed).silos;
      const questions = silos.flatMap((s) => s.questions);
      const statements = silos.flatMap((s) => s.statements);
      const count = (c: string) => questions.filter((q) => q.classes.includes(c as never)).length;
      expect(questions.length).toBeGreaterThanOrEqual(400);
      for (const silo of silos) expect(silo.questions.length).toBeGreaterThanOrEqual(10);
      expect(count('corrected') / questions.length).toBeGreaterThanOrEqual(0.35);
      expect(statements.filter((s) => s.truth.role === 'restatement').length).toBeGreaterThanOrEqual(100);
      expect(statements.filter((s) => s.truth.role === 'lookalike').length).toBeGreaterThanOrEqual(40);
      for (const c of ['correction-names-old-value', 'correction-reworded', 'restated-before-correction', 'has-sibling', 'has-lookalike']) {
        expect(count(c), c).toBeGreaterThanOrEqual(30);
      }
      const askedSiblings = questions.filter((q) => silos.some((s) => s.statements.some((st) => st.truth.slot === q.slot && st.truth.role === 'sibling')));
      expect(askedSiblings.length).toBeGreaterThanOrEqual(30);
    }
  });

  it("shares question slots across silos, so an answer from another user's memory is detectable", () => {
    for (const seed of SEEDS) {
      const silos = setOf(seed).silos;
      const shared = silos.flatMap((silo) => silo.questions.filter((q) => silos.some((o) => o !== silo && o.statements.some((s) => s.truth.slot === q.slot))));
      expect(shared.length).toBeGreaterThanOrEqual(100);
    }
  });
});
