import { z } from 'zod';

// Page tokens: where the previous page ended, as base64url JSON. Opaque to clients, checked on
// the way in so a mangled token is a 400 naming the field, never a query with garbage.

export interface OpaqueCursor<Position, Encoded> {
  encode(position: Encoded): string;
  /** The query field: the token as a position. */
  schema: z.ZodType<Position, string>;
}

/** `shape` validates the decoded JSON and turns it into the position the store takes. */
export function opaqueCursor<Position, Encoded>(shape: z.ZodType<Position, Encoded>): OpaqueCursor<Position, Encoded> {
  return {
    encode: (position) => Buffer.from(JSON.stringify(position)).toString('base64url'),
    schema: z.string().transform((text, context): Position => {
      try {
        return shape.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
      } catch {
        context.addIssue({ code: 'custom', message: 'not a cursor this server gave out: pass nextCursor from the previous page as it is' });
        return z.NEVER;
      }
    }),
  };
}
