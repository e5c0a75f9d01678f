import { z } from 'zod';
import { MAX_NOTE_BYTES, MAX_NOTES_PER_SESSION, NOTE_NAME, type NoteWrite, type SessionNotes } from '../../core/notes.js';
import { defineTool, type ToolContext } from '../../core/tool.js';

// The scratchpad: working notes private to the session, kept in the store while it has a turn
// running and cleared when it goes idle. Every refusal or miss is an ordinary result the model
// reads and acts on; only a failing store is an error.

const name = z.string().describe('The note: letters, digits, ".", "_" or "-", at most 64 characters, e.g. "plan" or "draft-2".');
const writeInput = z.object({ name, text: z.string().describe('Plain text.') });
const readInput = z.object({ name: name.optional().describe('The note to read; leave out to list the notes.') });

const NO_SESSION = 'There is no scratchpad in this conversation: it keeps no session (no store is open, or the syndicate sets memory_system: internal-only).';

function badName(note: string): string | undefined {
  return NOTE_NAME.test(note) ? undefined : `'${note}' is not a note name: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.`;
}

function notesOf(ctx: ToolContext): { notes: SessionNotes; sessionId: string } | undefined {
  return ctx.notes && ctx.sessionId !== undefined ? { notes: ctx.notes, sessionId: ctx.sessionId } : undefined;
}

function written(note: string, outcome: NoteWrite, verb: string): string {
  if (outcome.ok) return `${verb} '${note}' (${outcome.bytes} bytes).`;
  if (outcome.reason === 'too-large') return `Not written: '${note}' would be ${outcome.bytes} bytes, more than the ${MAX_NOTE_BYTES} a note may hold. Keep it shorter, or split it over several notes.`;
  return `Not written: this session already has ${MAX_NOTES_PER_SESSION} notes, the most it may keep. Overwrite one with write_tmp instead.`;
}

async function write(input: z.infer<typeof writeInput>, ctx: ToolContext, mode: 'replace' | 'append'): Promise<string> {
  const scratchpad = notesOf(ctx);
  if (!scratchpad) return NO_SESSION;
  const refused = badName(input.name);
  if (refused) return refused;
  const outcome = await scratchpad.notes.write(scratchpad.sessionId, input.name, input.text, mode);
  return written(input.name, outcome, mode === 'append' ? 'Appended to' : 'Wrote');
}

export const writeTmp = defineTool({
  name: 'write_tmp',
  description: `Writes a working note for the rest of this conversation turn (replacing a note of that name). Notes are private to the session and cleared when it goes idle. At most ${MAX_NOTES_PER_SESSION} notes of 1 MiB each.`,
  inputSchema: writeInput,
  execute: (input, ctx) => write(input, ctx, 'replace'),
});

export const appendTmp = defineTool({
  name: 'append_tmp',
  description: 'Adds text to the end of a working note (creating it if needed). See write_tmp.',
  inputSchema: writeInput,
  execute: (input, ctx) => write(input, ctx, 'append'),
});

export const readTmp = defineTool({
  name: 'read_tmp',
  description: 'Reads a working note written with write_tmp or append_tmp; without a name, lists the notes.',
  inputSchema: readInput,
  execute: async (input, ctx) => {
    const scratchpad = notesOf(ctx);
    if (!scratchpad) return NO_SESSION;
    const { notes, sessionId } = scratchpad;
    if (input.name !== undefined) {
      const refused = badName(input.name);
      if (refused) return refused;
      const text = await notes.read(sessionId, input.name);
      if (text !== undefined) return text;
    }
    const listed = await notes.list(sessionId);
    const names = listed.length === 0 ? 'there are no notes yet' : `notes: ${listed.map((note) => `${note.name} (${note.bytes} bytes)`).join(', ')}`;
    return input.name === undefined ? `The scratchpad's ${names}.` : `There is no note '${input.name}'; ${names}.`;
  },
});
