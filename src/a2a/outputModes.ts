import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';

// A caller may name the media types it can read (configuration.acceptedOutputModes). When none of
// them is one the agent answers in (its card's defaultOutputModes), the spec's answer is
// ContentTypeNotSupported, before a turn runs whose answer the caller could not read.

/** The bare media type, lower case: "Text/Plain; charset=utf-8" is text/plain. */
function bareType(mode: string): string {
  return mode.split(';')[0]!.trim().toLowerCase();
}

// Exact, a wildcard ("*/*", "text/*"), or a bare type name ("text", as 0.2-era clients send).
export function modeAccepts(accepted: string, produced: string): boolean {
  const want = bareType(accepted);
  const have = bareType(produced);
  if (want === have || want === '*/*' || want === '*') return true;
  const [type, subtype] = want.split('/');
  return (subtype === undefined || subtype === '*') && type === have.split('/')[0];
}

/** The error for a caller that accepts none of the produced modes; undefined when it accepts one, or did not say. */
export function unacceptedOutput(accepted: readonly string[], produced: readonly string[]): ContentTypeNotSupportedError | undefined {
  if (accepted.length === 0 || accepted.some((want) => produced.some((have) => modeAccepts(want, have)))) return undefined;
  return new ContentTypeNotSupportedError(
    `This agent answers in ${produced.join(', ')}, which configuration.acceptedOutputModes (${accepted.join(', ')}) does not include: add one of them, or send no list.`,
  );
}
