import { Parser } from 'htmlparser2';
import type { InboundMessage } from './inbound-message.js';

/**
 * Finds the sign-in (magic) link in an email or SMS. Only links to the target's site count: the same host for
 * IP addresses and localhost (any port), otherwise the same registrable domain (app.acme.com and acme.com).
 * A redirector that wraps such a link in a query parameter (?url=, ?u=, safelinks) is unwrapped; anything else on
 * another site is ignored. Links are chosen by their text and URL words (sign in, verify, magic, token, Anmelden,
 * ログイン ...); unsubscribe, help, preferences, privacy, "view in browser", tracking pixels and mailto: never are.
 * The returned URL is secret (it signs the user in): callers must not log it.
 */
export function findSignInLink(
  msg: Pick<InboundMessage, 'subject' | 'text' | 'html'>,
  target: { url: string },
): string | undefined {
  const site = siteOf(target.url);
  if (!site) return undefined;
  const links = [...(msg.html ? htmlLinks(msg.html) : []), ...(msg.text ? textLinks(msg.text) : [])];
  let best: { url: string; score: number } | undefined;
  for (const link of links) {
    const url = onSite(link.href, site);
    if (!url) continue;
    const s = score(url, link);
    if (s >= MIN_SCORE && (!best || s > best.score)) best = { url: url.href, score: s };
  }
  return best?.url;
}

/** A link needs at least a sign-in word or a token-like part to be taken. */
const MIN_SCORE = 4;

interface RawLink {
  href: string;
  /** The anchor's text (image alt included), or the rest of the line a bare URL stands on. */
  text: string;
  /** For a bare URL alone on its line: the line before ("Click below to sign in:"); only its positive words count. */
  lead?: string;
}

function htmlLinks(html: string): RawLink[] {
  const links: RawLink[] = [];
  let current: RawLink | undefined;
  let hidden = 0; // inside <style>/<script>/<head>: no link text there
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'style' || name === 'script' || name === 'head') hidden++;
        if (name === 'a') {
          if (current) links.push(current); // an unclosed <a> before this one
          current = attrs.href !== undefined ? { href: attrs.href, text: '' } : undefined;
        }
        if (name === 'img' && current && attrs.alt) current.text += ` ${attrs.alt}`;
      },
      ontext(text) {
        if (current && hidden === 0) current.text += text;
      },
      onclosetag(name) {
        if ((name === 'style' || name === 'script' || name === 'head') && hidden > 0) hidden--;
        if (name === 'a' && current) {
          links.push(current);
          current = undefined;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  if (current) links.push(current);
  return links.map((l) => ({ href: l.href.trim(), text: l.text.replace(/\s+/g, ' ').trim() }));
}

const BARE_URL = /https?:\/\/[^\s<>"'\]]+/gi;

/** Bare URLs in the text part, with the words on their line, or the line before when they stand alone. */
function textLinks(text: string): RawLink[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const links: RawLink[] = [];
  let previous = '';
  for (const line of lines) {
    for (const m of line.matchAll(BARE_URL)) {
      // plain-text parts sometimes carry HTML-escaped URLs; trailing punctuation belongs to the sentence
      const href = m[0].replace(/&amp;/g, '&').replace(/[.,;:!?)>]+$/, '');
      const own = line.replace(BARE_URL, ' ').replace(/\s+/g, ' ').trim();
      links.push({ href, text: own, lead: /\p{L}/u.test(own) ? undefined : previous });
    }
    if (line.trim()) previous = line.replace(BARE_URL, ' ').trim();
  }
  return links;
}

interface Site {
  host: string;
  /** true for IP addresses and localhost: only the same host matches. */
  exact: boolean;
  domain: string;
}

function siteOf(href: string): Site | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const exact = host === 'localhost' || host.endsWith('.localhost') || /^[\d.]+$/.test(host) || host.startsWith('[');
  return { host, exact, domain: exact ? host : registrableDomain(host) };
}

// Second-level labels under a country code that are public suffixes themselves (acme.co.uk, acme.com.au).
const GENERIC_SECOND_LEVEL = new Set([
  'co',
  'com',
  'net',
  'org',
  'gov',
  'edu',
  'ac',
  'ne',
  'or',
  'go',
  'gob',
  'gouv',
  'nic',
  'ltd',
  'plc',
  'mil',
  'nom',
]);
// Hosting suffixes where each subdomain is another owner (a.github.io is not b.github.io).
const SHARED_HOSTING = new Set([
  'github.io',
  'herokuapp.com',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'workers.dev',
  'azurewebsites.net',
  'cloudfront.net',
  'appspot.com',
  'firebaseapp.com',
  'web.app',
  'onrender.com',
  'fly.dev',
  'amazonaws.com',
]);

/** eTLD+1 by a simple rule (no public-suffix list is installed): the last two labels, three under co.uk-style. */
function registrableDomain(host: string): string {
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const lastTwo = labels.slice(-2).join('.');
  const tld = labels[labels.length - 1];
  const sld = labels[labels.length - 2];
  if ((tld.length === 2 && GENERIC_SECOND_LEVEL.has(sld)) || SHARED_HOSTING.has(lastTwo))
    return labels.slice(-3).join('.');
  return lastTwo;
}

function sameSite(url: URL, site: Site): boolean {
  const other = siteOf(url.href);
  if (!other) return false;
  if (site.exact || other.exact) return other.host === site.host;
  return other.domain === site.domain;
}

/** The link itself when it is on the target site, or the target-site URL a redirector wraps; else undefined. */
function onSite(href: string, site: Site): URL | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined; // relative, mailto:-less junk, "#"
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined; // mailto:, tel:, javascript:
  if (sameSite(url, site)) return url;
  for (const value of url.searchParams.values()) {
    // some redirectors encode the wrapped URL twice
    const candidate = /^https?%3A/i.test(value) ? safeDecode(value) : value;
    if (!/^https?:\/\//i.test(candidate)) continue;
    try {
      const inner = new URL(candidate);
      if (sameSite(inner, site)) return inner;
    } catch {
      // not a URL after all
    }
  }
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// Never a sign-in link, by its text (any language the mail may be in)...
const EXCLUDED_TEXT = new RegExp(
  [
    String.raw`unsubscribe|opt[\s-]?out|abbestellen|abmelden|désabonner|désinscri|darse de baja|cancelar (?:la )?suscripción`,
    String.raw`disiscriviti|annulla l'iscrizione|uitschrijven|afmelden|配信停止|退订|取消订阅|수신\s?거부`,
    String.raw`(?<![\p{L}])(?:help|support|hilfe|aide|ayuda|aiuto|assistance)(?![\p{L}])|help ?center|preferences?`,
    String.raw`einstellungen|settings|paramètres|manage (?:your )?(?:email|notification|subscription)`,
    String.raw`privacy|datenschutz|confidentialité|privacidad|terms|(?<![\p{L}])agb(?![\p{L}])|nutzungsbedingungen`,
    String.raw`view (?:it |this (?:email |message )?)?(?:in (?:your |a )?browser|online)|web ?version|im browser`,
    String.raw`navigateur|sign[\s-]?out|log[\s-]?out|(?:wasn'?t|not) (?:you|me)(?![\p{L}])|(?<![\p{L}])report`,
    String.raw`secure your account|reset|forgot|change (?:your )?password|(?<![\p{L}])(?:deny|decline|block)(?![\p{L}])`,
    String.raw`app store|google play|download the app`,
    // signing up is not signing in (account creation is not what a login waits for)
    String.raw`(?<![\p{L}])(?:sign[\s-]?up|register|create (?:an |your )?account)(?![\p{L}])`,
  ].join('|'),
  'iu',
);
// ...or by a word of its host labels and path segments ("help.acme.com", "/email-preferences", "/reset_password");
// not by query values: random tokens may spell anything.
const EXCLUDED_URL_WORDS = new Set(
  (
    'unsubscribe unsub optout help helpcenter support preferences preference emailpreferences settings privacy ' +
    'terms legal tos logout signout reset forgot passwordreset resetpassword signup register viewinbrowser ' +
    'webversion browserview pixel beacon'
  ).split(' '),
);
function excludedSegment(segment: string): boolean {
  const words = safeDecode(segment).toLowerCase().split(/[-_.]/);
  return words.some((w) => EXCLUDED_URL_WORDS.has(w)) || EXCLUDED_URL_WORDS.has(words.join(''));
}
const TRACKING_PIXEL_PATH = /(?:\/(?:track|wf|e)\/open|\/open\.(?:gif|png)|\.(?:gif|png|jpe?g|webp|svg|ico))$/i;

const STRONG_TEXT = new RegExp(
  String.raw`(?<![\p{L}])(?:sign[\s-]?in|log[\s-]?in|verify|confirm|magic|authenticate)|verif|anmelden|einloggen|` +
    String.raw`bestätigen|connexion|se connecter|iniciar sesión|entrar|acceder|accedi|inloggen|ログイン|登录|登入|로그인`,
  'iu',
);
const WEAK_TEXT =
  /continue|(?<![\p{L}])(?:open|access|go to|click here|here)(?![\p{L}])|weiter|continuer|continuar|続行/iu;
const URL_WORD =
  /(?:^|[/_.\-?&=])(?:sign-?_?in|log-?_?in|auth\w*|verify\w*|verification|confirm\w*|magic\w*|token|otp|passwordless|session|callback|sso|email-?_?link|one-?_?time|code|key|nonce|ticket)(?:$|[/_.\-?&=])/i;

/** Text words weigh most, URL words next, a long random-looking token a little; exclusions end it. */
function score(url: URL, { text, lead }: RawLink): number {
  const segments = [...url.hostname.split('.'), ...url.pathname.split('/').filter(Boolean)];
  if (EXCLUDED_TEXT.test(text) || segments.some(excludedSegment)) return -1;
  if (TRACKING_PIXEL_PATH.test(url.pathname)) return -1;
  let s = 0;
  const words = lead && !EXCLUDED_TEXT.test(lead) ? `${text} ${lead}` : text;
  if (STRONG_TEXT.test(words)) s += 10;
  else if (WEAK_TEXT.test(words)) s += 4;
  const paramNames = [...url.searchParams.keys()].join('&');
  if (URL_WORD.test(url.pathname) || URL_WORD.test(`?${paramNames}=`)) s += 6;
  const parts = [...url.pathname.split('/'), ...url.searchParams.values(), url.hash.slice(1)];
  if (parts.some((p) => p.length >= 16 && /[A-Za-z]/.test(p) && /\d/.test(p))) s += 4;
  // a bare home-page link (the logo) signs nobody in
  if ((url.pathname === '/' || url.pathname === '') && !url.search && !url.hash) s -= 10;
  return s;
}
