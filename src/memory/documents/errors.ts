// A refusal the caller can act on (bad path, oversized document, malformed frontmatter, bad import
// entry). Tools hand its message to the model; anything else thrown is a bug.
export class DocumentError extends Error {
  override readonly name: string = 'DocumentError';
}

/** The document or revision asked for does not exist (in this silo). */
export class DocumentNotFoundError extends DocumentError {
  override readonly name = 'DocumentNotFoundError';
}
