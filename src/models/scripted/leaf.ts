const REMARKS = [
  'the answer turns on who bears the cost and who gets the benefit.',
  'the strongest case rests on evidence from people who have tried it.',
  'a small, reversible trial would settle more than further debate.',
  'the risks are real but manageable with a clear fallback plan.',
  'it is worth doing if the goal is stated and measured up front.',
];

const HASHED_CHARS = 256;

/** A cheap, stable string hash (FNV-1a over the first characters). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  const end = Math.min(text.length, HASHED_CHARS);
  for (let i = 0; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A leaf agent's deterministic answer; it repeats the input so tests can follow it through a graph. */
export function leafText(agentName: string, input: string): string {
  return `[${agentName}] On "${input}": ${REMARKS[((hash(agentName) ^ hash(input)) >>> 0) % REMARKS.length]}`;
}
