import { CLASSIFY_MARKER, type NamedDescription } from '../context.js';

export interface IndexedRoute {
  name: string;
  words: ReadonlySet<string>;
}

export interface Classification {
  route: string;
  reason: string;
}

const NON_WORD = /[^\p{L}\p{N}]+/u;
const MIN_WORD_LENGTH = 3;
const STOP_WORDS: ReadonlySet<string> = new Set([
  'about', 'all', 'and', 'any', 'are', 'but', 'can', 'could', 'did', 'does', 'for', 'from', 'had', 'has', 'have',
  'her', 'his', 'how', 'into', 'its', 'just', 'not', 'our', 'out', 'please', 'should', 'that', 'the', 'their',
  'them', 'then', 'there', 'they', 'this', 'was', 'were', 'what', 'when', 'where', 'which', 'who', 'why', 'will',
  'with', 'would', 'you', 'your',
]);

/** Plural and singular compare equal ("invoices" ~ "invoice"), which is most of what routing needs. */
function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** Significant words of `text`, each with its stem, in order of first appearance. */
function significantWords(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const word of text.toLowerCase().split(NON_WORD)) {
    if (word.length < MIN_WORD_LENGTH || STOP_WORDS.has(word)) continue;
    const root = stem(word);
    if (!words.has(root)) words.set(root, word);
  }
  return words;
}

export function indexRoutes(routes: readonly NamedDescription[]): IndexedRoute[] {
  return routes.map((route) => ({
    name: route.name,
    words: new Set(significantWords(`${route.name} ${route.description}`).keys()),
  }));
}

/** The part of a classifier prompt that is the user's message. */
export function messageToClassify(userText: string): string {
  const at = userText.indexOf(CLASSIFY_MARKER);
  return at < 0 ? userText : userText.slice(at + CLASSIFY_MARKER.length).trim();
}

/** Picks the route sharing the most words with `message`; ties and no overlap go to the first route. */
export function classify(message: string, routes: readonly IndexedRoute[]): Classification {
  const words = significantWords(message);
  let best: IndexedRoute | undefined;
  let bestShared: string[] = [];
  for (const route of routes) {
    const shared: string[] = [];
    for (const [root, word] of words) if (route.words.has(root)) shared.push(word);
    if (shared.length > bestShared.length) {
      best = route;
      bestShared = shared;
    }
  }
  const first = routes[0]?.name ?? '';
  if (best === undefined) return { route: first, reason: `no word overlap with any route; defaulting to ${first}` };
  const quoted = bestShared.map((word) => `"${word}"`).join(', ');
  return { route: best.name, reason: `shares the word${bestShared.length > 1 ? 's' : ''} ${quoted} with ${best.name}` };
}
