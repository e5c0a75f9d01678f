// Pages that stand in for the content asked for: bot checks, paywall stubs, and empty shells
// of pages that build their content with JavaScript (which web_extract does not run). They are
// reported as labelled errors, never handed to the model as if they were the page.

export interface BlockedPage {
  kind: 'bot-check' | 'paywall' | 'js-shell' | 'empty';
  reason: string;
}

const BOT_CHECK_MARKERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/<title>\s*(just a moment|attention required|checking your browser|ddos-guard)/i, 'a bot check (Cloudflare or similar) answered instead of the page'],
  [/challenge-platform|cf-chl-|cf_chl_opt|__cf_chl/i, 'a Cloudflare challenge answered instead of the page'],
  [/px-captcha|_pxhd|perimeterx/i, 'a PerimeterX bot check answered instead of the page'],
  [/datadome|captcha-delivery\.com/i, 'a DataDome bot check answered instead of the page'],
  [/_incapsula_resource|incapsula incident/i, 'an Imperva bot check answered instead of the page'],
  [/<title>[^<]*(are you a robot|verify you are human|security check|access denied|captcha)/i, 'a bot check or access-denied page answered instead of the page'],
];

const BOT_CHECK_TEXT = /(verify (that )?you are (a )?human|are you a robot|enable (javascript and )?cookies to continue|complete the security check|unusual traffic from your (computer|network))/i;

const PAYWALL_TEXT =
  /(subscribe (now )?to (continue|keep) reading|to continue reading,? (please )?(subscribe|sign in|log in|register)|this (article|story|content) is (only )?(available|reserved) (only )?(to|for) (paying )?(subscribers|members)|you('ve| have) (reached|used) (your|all of your) (free article|article limit))/i;

/** Below this many characters of text, a page that matches a stub pattern is the stub. */
const STUB_CHARS = 2_000;
/** Below this, a page that loads scripts is an empty shell waiting for JavaScript. */
const SHELL_CHARS = 200;

export function blockedPage(html: string, text: string, status: number): BlockedPage | undefined {
  const head = html.slice(0, 50_000);
  for (const [pattern, reason] of BOT_CHECK_MARKERS) {
    if (pattern.test(head) && (text.length < STUB_CHARS || status >= 400)) return { kind: 'bot-check', reason };
  }
  if (text.length < STUB_CHARS && BOT_CHECK_TEXT.test(text)) return { kind: 'bot-check', reason: 'the page asks to prove a human is visiting' };
  if (text.length < STUB_CHARS && PAYWALL_TEXT.test(text)) return { kind: 'paywall', reason: 'only a paywall stub came back: the article is for subscribers' };
  if (text.length < SHELL_CHARS && /<script\b/i.test(html)) {
    return { kind: 'js-shell', reason: 'the page is an empty shell that builds its content with JavaScript, which web_extract does not run' };
  }
  if (text.trim() === '') return { kind: 'empty', reason: 'the page has no readable text' };
  return undefined;
}
