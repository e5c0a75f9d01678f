import { describe, expect, it } from 'vitest';
import { wrapLabel } from '../../src/studio/app/wrapLabel.js';

// The names under a usage chart's bars, each fitted to its bar's slot.

describe('a label under a bar', () => {
  it('stays on one line when it fits', () => {
    expect(wrapLabel('scripted', 12, 2)).toBe('scripted');
  });

  it('wraps at spaces onto the lines that fit', () => {
    expect(wrapLabel('Receptionist (Waiting Room)', 14, 2)).toBe('Receptionist\n(Waiting Room)');
  });

  it('cuts what is left after its last line with an ellipsis', () => {
    expect(wrapLabel('Moderator (The Very Long Council)', 12, 2)).toBe('Moderator\n(The Very L…');
  });

  it('cuts a word longer than a line with an ellipsis', () => {
    expect(wrapLabel('gemini-2.5-flash-lite', 10, 2)).toBe('gemini-2.…');
  });
});
