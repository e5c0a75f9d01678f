import { describe, expect, it } from 'vitest';
import { colleagueSet } from '../../bench/memoryQuality/colleagueSet.js';
import { assertSilo } from '../../src/core/silo.js';

// The colleague's held-out check is only worth its scores if its truth is exact.

describe('the colleague memory benchmark set', () => {
  it('is the same set for the same seed and another set for another seed', () => {
    expect(colleagueSet(4)).toEqual(colleagueSet(4));
    expect(colleagueSet(5).silos[0]!.statements).not.toEqual(colleagueSet(4).silos[0]!.statements);
  });

  it('asks each question after every statement of its silo, in silos with valid ids', () => {
    for (const silo of colleagueSet(4).silos) {
      assertSilo(silo.silo);
      const last = Math.max(...silo.statements.map((statement) => Date.parse(statement.saidAt)));
      for (const question of silo.questions) expect(Date.parse(question.askedAt)).toBeGreaterThan(last);
    }
  });

  it('answers each question with the value of its slot said last, and calls every earlier value stale', () => {
    for (const silo of colleagueSet(4).silos) {
      for (const question of silo.questions) {
        const said = silo.statements.filter(({ truth }) => truth.slot === question.slot && truth.role !== 'sibling' && truth.role !== 'lookalike');
        expect(said.at(-1)!.truth.value).toBe(question.currentValue);
        const earlier = [...new Set(said.map(({ truth }) => truth.value))].filter((value) => value !== question.currentValue);
        expect([...question.staleValues].sort()).toEqual(earlier.sort());
      }
    }
  });

  it('states each value in the text that asserts it', () => {
    for (const silo of colleagueSet(4).silos) {
      for (const { text, truth } of silo.statements) {
        if (truth.role === 'filler' || truth.role === 'sibling') continue;
        expect(text.toLowerCase()).toContain(truth.value.toLowerCase());
      }
    }
  });
});
