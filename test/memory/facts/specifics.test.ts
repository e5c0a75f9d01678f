import { describe, expect, it } from 'vitest';
import { conflictingSpecifics, specificsOf } from '../../../src/memory/facts/specifics.js';

describe('the specifics a fact states', () => {
  it('are its names, numbers and dates, not the capital that opens a sentence', () => {
    expect([...specificsOf('The user owes Clara 20 dollars since Saturday.')].sort()).toEqual(['20', 'clara', 'saturday']);
  });

  it('count a name that opens the sentence', () => {
    expect([...specificsOf('Clara owes the user 4,800 euros.')].sort()).toEqual(['4800', 'clara']);
  });
});

describe('conflicting specifics', () => {
  it('are none between a fact and its restatement in other case and words', () => {
    expect(conflictingSpecifics('The user lives in Paris.', "the user's home is in paris")).toEqual([]);
  });

  it('name the person or day one fact states and the other does not', () => {
    expect(conflictingSpecifics('I owe Tom 20 dollars.', 'I owe Clara 20 dollars.')).toEqual(['tom', 'clara']);
    expect(conflictingSpecifics('The hike is on Saturday.', 'The hike is on sunday.')).toEqual(['saturday', 'sunday']);
  });

  it('read 4,800 and 4800 as one number', () => {
    expect(conflictingSpecifics('The rent is 4,800 euros.', 'The rent is 4800 euros.')).toEqual([]);
  });
});
