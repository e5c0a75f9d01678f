import { describe, expect, it } from 'vitest';
import { conflictingSpecifics, specificsOf, substitutesValue } from '../../../src/memory/facts/specifics.js';

describe('the specifics a fact states', () => {
  it('are its names, numbers and dates, not the capital that opens a sentence', () => {
    expect([...specificsOf('The user owes Clara 20 dollars since Saturday.')].sort()).toEqual(['20', 'clara', 'saturday']);
  });

  it('count a name that opens the sentence when a key of the fact names it', () => {
    expect([...specificsOf('Clara owes the user 4,800 euros.', ['clara', 'debt'])].sort()).toEqual(['4800', 'clara']);
  });

  it('count a word that opens the sentence when the text capitalises it elsewhere', () => {
    expect([...specificsOf('Pudding rolled in the mud, so Pudding needs a bath.')]).toEqual(['pudding']);
  });

  it('never count as a name a capitalised word that only opens a sentence or follows a colon', () => {
    expect([...specificsOf('Small change: Yoga class starts at 7am.', ['class'])]).toEqual(['7am']);
    expect([...specificsOf('Wait, Helena runs my team.', ['manager'])]).toEqual(['helena']);
  });

  it('never count "one" as a number: it is a pronoun more often', () => {
    expect([...specificsOf('Random one: I got a new one.')]).toEqual([]);
  });

  it('never count the pronoun I as a name', () => {
    expect([...specificsOf('So, at 10am I take my pill, as I said.')]).toEqual(['10am']);
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

  it('name a time or quantity written with its unit', () => {
    expect(conflictingSpecifics('The dentist appointment is at 3pm.', 'The dentist appointment is at 5pm.')).toEqual(['3pm', '5pm']);
  });

  it('name a number or a time of day written in words', () => {
    expect(conflictingSpecifics('The user has two cats.', 'The user has three cats.')).toEqual(['two', 'three']);
    expect(conflictingSpecifics('The user runs in the morning.', 'The user runs in the evening.')).toEqual(['morning', 'evening']);
  });

  it('count a negation, however it is written, as stating the opposite', () => {
    expect(conflictingSpecifics('The user likes jazz.', "The user doesn't like jazz.")).toEqual(['not']);
    expect(conflictingSpecifics('The user never eats meat.', 'The user does not eat meat.')).toEqual([]);
  });

  it('read 4,800 and 4800 as one number', () => {
    expect(conflictingSpecifics('The rent is 4,800 euros.', 'The rent is 4800 euros.')).toEqual([]);
  });
});

describe('a value substituted in one sentence', () => {
  it('is found when the same words surround other words', () => {
    expect(substitutesValue('The user prefers green tea in the morning.', 'The user prefers black coffee in the morning.')).toBe(true);
  });

  it('is not found in a paraphrase that keeps only the subject and the value', () => {
    expect(substitutesValue('The user prefers to drink black coffee.', "The user's favourite drink is black coffee.")).toBe(false);
  });

  it('is not found when words are only added', () => {
    expect(substitutesValue('The user likes jazz.', 'The user really likes jazz.')).toBe(false);
  });

  it('is found inside a sentence framed by another opener and aside', () => {
    expect(substitutesValue("Mateo's a barista by trade, just so you have it", "Just so you know, Mateo's a physio by trade, just so you have it.")).toBe(true);
    expect(substitutesValue("Honestly I've moved on, it's trail running that I can't stop doing (long story).", "honestly I've moved on, it's chess that I can't stop doing.")).toBe(true);
  });

  it('is not found in a sentence reworded in its middle around the same value', () => {
    expect(substitutesValue('Oh, and the user is allergic to gluten, anyway.', 'FYI the user has an allergy to gluten.')).toBe(false);
  });

  it('is not found in a sentence reworded in its middle around the same value, opener or none', () => {
    expect(substitutesValue('The user is allergic to cats.', 'The user has an allergy to cats.')).toBe(false);
    expect(substitutesValue('The user lives in Paris.', "The user's home is in Paris.")).toBe(false);
  });

  it('is found in a short sentence with its one value swapped', () => {
    expect(substitutesValue('I drink tea.', 'I drink coffee.')).toBe(true);
  });

  it('is not found between the same words in another case', () => {
    expect(substitutesValue('The user lives in Tallinn.', 'the user lives in tallinn')).toBe(false);
  });
});
