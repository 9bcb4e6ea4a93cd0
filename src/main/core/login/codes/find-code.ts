import type * as HtmlToText from 'html-to-text';
import { lazyRequire } from '../../lazy-module.js';
import type { InboundMessage } from './inbound-message.js';

/**
 * Finds the one-time login code in an email or SMS: candidates (4-8 digits, optionally split "123 456"/"123-456",
 * or 5-8 character upper-case letter+digit codes such as "K7Q-2MX") are scored by how close they stand to a code
 * word (code, verification, OTP, PIN, Bestätigungscode, código, 認証コード, 验证码, 인증번호 ...) and by standing alone
 * on a line or in their own element; things that only look like codes (years, prices, phone numbers, order and
 * reference numbers, zip codes, durations) are dropped. Separators are removed from the returned code.
 * The message is secret: nothing here logs or throws with its content.
 */
export function findCode(msg: Pick<InboundMessage, 'subject' | 'text' | 'html'>): string | undefined {
  const docs: string[] = [];
  if (msg.subject) docs.push(normalize(msg.subject));
  if (msg.text) docs.push(normalize(msg.text));
  if (msg.html) docs.push(normalize(htmlText()(msg.html)));

  let best: { value: string; score: number } | undefined;
  let anyKeyword = false;
  const sixDigits = new Map<string, boolean>(); // value -> stands (nearly) alone somewhere
  for (const doc of docs) {
    const keywords = findKeywords(doc);
    if (keywords.length > 0) anyKeyword = true;
    for (const c of candidates(doc, keywords)) {
      if (c.numeric && c.value.length === 6) sixDigits.set(c.value, (sixDigits.get(c.value) ?? false) || c.nearlyAlone);
      if (c.score >= MIN_SCORE && (!best || c.score > best.score)) best = c;
    }
  }
  if (best) return best.value;
  // An SMS may be nothing but the code ("123456" or "Acme: 123456"): with no code word anywhere, a single
  // six-digit number that (nearly) fills its line is taken; two or more, or one inside a sentence, are not.
  if (!anyKeyword && sixDigits.size === 1) {
    const [[value, nearlyAlone]] = [...sixDigits];
    if (nearlyAlone) return value;
  }
  return undefined;
}

/** Below this a candidate is too far from any code word (see `score`). */
const MIN_SCORE = 40;
const MAX_DOC_CHARS = 200_000;

// Private-use marks around inline elements, so a code that fills its own <strong>/<span> can be recognised.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKS = /[\uE000\uE001]/g;

const HTML_TEXT_OPTIONS: HtmlToText.HtmlToTextOptions = {
  wordwrap: false,
  limits: { maxInputLength: 1_000_000 },
  selectors: [
    // hrefs and images carry ids and tracking numbers, never the code a person reads
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
      selector,
      format: 'heading',
      options: { uppercase: false, leadingLineBreaks: 2, trailingLineBreaks: 2 },
    })),
    // layout tables: one cell per line, so a code in its own <td> stands alone
    ...['table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th'].map((selector) => ({ selector, format: 'block' })),
    ...['strong', 'b', 'code', 'kbd', 'samp', 'tt', 'span', 'font', 'big', 'mark', 'em', 'i', 'u'].map((selector) => ({
      selector,
      format: 'inlineSurround',
      options: { prefix: OPEN, suffix: CLOSE },
    })),
  ],
};

/**
 * html-to-text (with htmlparser2 and its kin) is required by the first HTML message, not at start: findCode is
 * synchronous (the login steps call it as messages arrive), and a server that reads no mail never needs it.
 */
const loadHtmlToText = lazyRequire<typeof HtmlToText>('html-to-text');
let htmlConverter: ((html: string) => string) | undefined;
const htmlText = () => (htmlConverter ??= loadHtmlToText().compile(HTML_TEXT_OPTIONS));

function normalize(s: string): string {
  return (
    s
      .slice(0, MAX_DOC_CHARS)
      .replace(/\r\n?/g, '\n')
      // full-width digits and Latin letters (Japanese/Chinese mails) only: NFKC would also turn "，" into ","
      .replace(/[\uFF10-\uFF19\uFF21-\uFF3A]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(/[\u00A0\u2007\u202F\u3000\t]/g, ' ')
      // zero-width characters some senders put inside codes to stop auto-linking
      .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      // URLs and addresses carry ids and tokens, not the code a person types
      .replace(/(?:https?:\/\/|www\.)[^\s<>"]+/gi, ' ')
      // (anchored at a word start: unanchored, a long run of letters without "@" takes quadratic time)
      .replace(/(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, ' ')
  );
}

// Scripts whose letters glue to a number and make it part of a word; CJK text runs into codes without spaces.
const LETTER = String.raw`\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}`;

// Whole words; `(\p{L}*)code` also takes compounds (Bestätigungscode, Einmalcode, verificatiecode).
const LATIN_KEYWORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(\p{L}*)codes?|c[oó]dig[oa]s?|codic[ei]|kod[uy]?|v[eé]rif\p{L}*|bestätig\p{L}*|` +
    String.raw`one[- ]time|otp|passcode|pin|2fa|mfa|two[- ]factor|2-step|einmal\p{L}*|authenticat\p{L}*|код\p{L}*)` +
    String.raw`(?![\p{L}])`,
  'giu',
);
const CJK_KEYWORD =
  /認証コード|確認コード|ワンタイム|認証番号|確認番号|パスコード|コード|验证码|驗證碼|校验码|校驗碼|动态码|動態碼|确认码|確認碼|安全码|인증\s?코드|인증\s?번호|확인\s?코드|보안\s?코드|코드|인증/gu;
// "code" that is not a login code: barcode, postcode, promo code, code postal, código promocional ...
const CODE_PREFIX_NOT_LOGIN =
  /^(?:bar|post|zip|promo\p{L}*|de|en|uni|source|qr|rabatt|gutschein|geschenk|aktions|gift|area|country|dress|voucher|coupon|discount|referral|invite|pin)$/iu;
const WORD_BEFORE_NOT_LOGIN =
  /(?:promo\p{L}*|discount|coupon|voucher|gift|referral|invit\p{L}*|postal|zip|area|country|qr|source|dress|tracking|bar)[\s-]*$/iu;
const WORDS_AFTER_NOT_LOGIN =
  /^\s*(?:promo|postal|de réduction|de descuento|promocional|fiscale|sconto|postale|de parrainage|cadeau)/iu;

interface Span {
  start: number;
  end: number;
}

function findKeywords(doc: string): Span[] {
  const found: Span[] = [];
  for (const m of doc.matchAll(LATIN_KEYWORD)) {
    const start = m.index;
    const end = start + m[0].length;
    const prefix = m[1];
    if (prefix !== undefined && CODE_PREFIX_NOT_LOGIN.test(prefix)) continue;
    if (/^\p{L}*codes?$/iu.test(m[0])) {
      if (WORD_BEFORE_NOT_LOGIN.test(doc.slice(Math.max(0, start - 20), start))) continue;
      if (WORDS_AFTER_NOT_LOGIN.test(doc.slice(end, end + 20))) continue;
    }
    found.push({ start, end });
  }
  for (const m of doc.matchAll(CJK_KEYWORD)) found.push({ start: m.index, end: m.index + m[0].length });
  return found.sort((a, b) => a.start - b.start);
}

// 4-8 digits, or 3-4 + 3-4 split by one space or dash; "G-123456" (Google SMS) gives the digits.
const NUMERIC = new RegExp(
  String.raw`(?:(?<=(?:^|[^\p{L}\p{N}])[A-Z]-)|(?<![${LETTER}\p{N}$€£¥₹#+.,/\\_-]))(\d{3,4}[ -]\d{3,4}|\d{4,8})` +
    String.raw`(?![${LETTER}\p{N}_]|[.,:/]\d|-\d)`,
  'gu',
);
// Letters and digits, optionally split by one dash (K7Q-2MX); which mixes count is checked after the match.
const ALPHANUMERIC = new RegExp(
  String.raw`(?<![${LETTER}\p{N}$#+.,/\\_-])([A-Za-z0-9]{2,5}-[A-Za-z0-9]{2,5}|[A-Za-z0-9]{5,8})` +
    String.raw`(?![${LETTER}\p{N}_/]|-[\p{L}\p{N}])`,
  'gu',
);
const UPPER_MIXED = /^(?=.*[A-Z])(?=.*\d)[A-Z\d]{5,8}$/;
// Lower-case codes (X/Twitter "lzm4vhka") look like any word with a digit, so they need a code word right beside.
const LOWER_MIXED = /^(?=.*[a-z])(?=.*\d)[a-z\d]{6,8}$/;
const WORD_AND_NUMBER = /^(?:[A-Z]{3,}\d{1,3}|\d{1,3}[A-Z]{3,})$/;

// What makes a number something else. `before`/`after` are up to 40/24 characters around it, marks removed.
const CURRENCY_BEFORE =
  /(?:[$€£¥₹₩]|(?<![\p{L}])(?:usd|eur|gbp|chf|jpy|cad|aud|inr|sek|nok|dkk|pln|brl|mxn|cny|rmb|krw|rs|r\$|us\$)\.?)\s?$/iu;
const CURRENCY_AFTER =
  /^(?:,-|\s?(?:[$€£¥₹₩%円元원]|(?:usd|eur|euros?|dollars?|gbp|chf|jpy|yen|cad|aud|pesos?|reais)(?![\p{L}])))/iu;
const UNIT_AFTER = new RegExp(
  String.raw`^(?:\s?(?:min(?:ute)?s?|minuten|minutos|minuti|hours?|hrs?|stunden|heures|horas|ore|sec(?:ond)?s?|` +
    String.raw`sekunden|secondes|segundos|secondi|days?|tage|jours|días|giorni|ms|px|pt|kb|mb|gb|tb|kg|km|miles|` +
    String.raw`points|pts|punkte|credits?)(?![\p{L}])|[分秒]|時間|小时|초|분|시간)`,
  'iu',
);
const LABEL_BEFORE = new RegExp(
  String.raw`(?:(?<![\p{L}])(?:order|bestell\p{L}*|commande|pedido|ordine|bestelling|ref|reference|referenz|référence|` +
    String.raw`referencia|riferimento|ticket|case|invoice|rechnung\p{L}*|facture|factura|fattura|account|konto|` +
    String.raw`kunden\p{L}*|customer|member(?:ship)?|tracking|shipment|sendung\p{L}*|transaction|transaktion|booking|` +
    String.raw`buchung\p{L}*|reservation|reservierung|confirmation|auftrag\p{L}*|vorgang\p{L}*|hrb|hra|vat|ust-?id\p{L}*|` +
    String.raw`tax|steuer\p{L}*|phone|tel|telefon|téléphone|teléfono|fax|mobile?|handy|call|whatsapp|room|zimmer|suite|` +
    String.raw`apt|flight|flug|id|no|nr|n°|nº|zip|plz|postcode|postleitzahl|postfach|box)\.?\s*` +
    String.raw`(?:(?:number|nummer|numéro|número|numero|no|nr|n°|nº|id|#)\.?\s*)?[:#]?\s*|` +
    String.raw`(?:注文番号|ご注文|注文|订单号?|訂單編號|訂單|单号|주문\s?번호|예약\s?번호|予約番号|電話|电话|전화)\s*[:：#]?\s*)$`,
  'iu',
);
// Another digit group right before or after: phone numbers, card numbers, IBANs.
const DIGIT_GROUP_BEFORE = /(?:\d[ .\-/]|\d\)\s?|\+\d{0,3}\s?)$/;
const DIGIT_GROUP_AFTER = /^(?: \d{3,}|\s?\))/;
const PROMO_LINE =
  /(?:\d\s?%|(?<![\p{L}])off your|checkout|discount|rabatt|réduction|descuento|sconto|coupon|promo|gutschein|voucher|gift card)/iu;
const YEAR_BEFORE = new RegExp(
  String.raw`(?:©|\(c\)|copyright|(?<![\p{L}])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mär|mai|okt|dez|` +
    String.raw`janv|févr|avr|juil|déc|ene|abr|ago|dic|gen|mag|giu|lug|ott)\p{L}*\.?,?|\d{1,2}(?:st|nd|rd|th)?\.?,?|` +
    String.raw`(?<![\p{L}])(?:since|seit|depuis|desde|dal|in|im|en|year|jahr|année|año|anno|fy|q[1-4]))\s*$`,
  'iu',
);
const YEAR_AFTER =
  /^(?:\s*(?:年|all rights|alle rechte|tous droits|todos los derechos|tutti i diritti)|\s*[-–]\s*(?:19|20)\d\d)/iu;
// "CA 94103", "10115 Berlin" (at a line start or after a comma).
const STATE_BEFORE = /(?<![\p{L}])[A-Z]{2},?\s$/u;
const CITY_AFTER = /^,?\s+\p{Lu}\p{Ll}/u;

interface Candidate {
  value: string;
  numeric: boolean;
  score: number;
  /** Its line holds no other number and at most a short label ("Acme: 123456"). */
  nearlyAlone: boolean;
}

function candidates(doc: string, keywords: Span[]): Candidate[] {
  const out: Candidate[] = [];
  const visit = (m: RegExpMatchArray, numeric: boolean): void => {
    const raw = m[1];
    const value = raw.replace(/[ -]/g, '');
    const start = m.index!;
    const end = start + raw.length;
    const near = nearestKeyword(doc, keywords, start, end);
    if (!numeric && !UPPER_MIXED.test(value) && !(near.adjacent && LOWER_MIXED.test(value))) return;
    const ctx = context(doc, start, end, value);
    // "SAVE20", "COVID19", "ISO9001": a word and a number; taken only where a code is shown as one
    if (!numeric && WORD_AND_NUMBER.test(value) && !(ctx.aloneOnLine || ctx.ownElement || near.rightAfter)) return;
    if (looksLikeSomethingElse(value, numeric, ctx, near)) return;
    const rest = ctx.line.replace(raw, ' ');
    const nearlyAlone = !/\d/.test(rest) && (rest.match(/\p{L}+/gu) ?? []).length <= 3;
    out.push({ value, numeric, score: score(value, numeric, ctx, near), nearlyAlone });
  };
  for (const m of doc.matchAll(NUMERIC)) visit(m, true);
  for (const m of doc.matchAll(ALPHANUMERIC)) visit(m, false);
  return out;
}

interface Context {
  before: string;
  after: string;
  line: string;
  /** Nothing but the code (and punctuation) on its line. */
  aloneOnLine: boolean;
  /** The code fills an inline element of its own (<strong>482913</strong>). */
  ownElement: boolean;
}

function context(doc: string, start: number, end: number, value: string): Context {
  const rawBefore = doc.slice(Math.max(0, start - 40), start);
  const rawAfter = doc.slice(end, end + 24);
  // (at most 200 characters either side: a 200 kB one-line text part must not make this quadratic)
  const lineStart = Math.max(doc.lastIndexOf('\n', start - 1) + 1, start - 200);
  const lineEnd = doc.indexOf('\n', end);
  const line = doc.slice(lineStart, Math.min(lineEnd === -1 ? doc.length : lineEnd, end + 200)).replace(MARKS, '');
  return {
    before: rawBefore.replace(MARKS, ''),
    after: rawAfter.replace(MARKS, ''),
    line,
    aloneOnLine: line.replace(/[\s\p{P}]/gu, '') === value,
    ownElement: rawBefore.trimEnd().endsWith(OPEN) && rawAfter.trimStart().startsWith(CLOSE),
  };
}

interface Near {
  /** Characters between the candidate and the closest code word, each line break costing like 15 (another
   * paragraph says less); Infinity without any code word. */
  cost: number;
  /** A code word on the same line a few words away ("code is 123456", "123456 is your Acme code", "验证码为123456"). */
  adjacent: boolean;
  /** Right after a code word ("code: X", "code is X", "PIN X"). */
  rightAfter: boolean;
}

const KEYWORD_REACH = 600;
// What may stand between a code word and its code: "code: ", "code is ", "Code lautet ", "验证码为", "인증번호 ["
const RIGHT_AFTER = /^[\s:：=\-[(（【「"'“]*(?:is|ist|lautet|est|es|é|è|は|为|是)?[\s:：=\-[(（【「"'“]*$/iu;

function nearestKeyword(doc: string, keywords: Span[], start: number, end: number): Near {
  let cost = Infinity;
  let adjacent = false;
  let rightAfter = false;
  for (const k of keywords) {
    // only code words within reach matter (further away the score is below MIN_SCORE); they are sorted
    if (k.end < start - KEYWORD_REACH) continue;
    if (k.start > end + KEYWORD_REACH) break;
    const between = k.end <= start ? doc.slice(k.end, start) : k.start >= end ? doc.slice(end, k.start) : '';
    const gap = between.replace(MARKS, '');
    const breaks = (gap.match(/\s*\n\s*/g) ?? []).length;
    const c = gap.replace(/\s+/g, ' ').length + 15 * breaks;
    if (c < cost) cost = c;
    if (breaks === 0 && gap.length <= 25) adjacent = true;
    if (k.end <= start && RIGHT_AFTER.test(gap)) rightAfter = true;
  }
  return { cost, adjacent, rightAfter };
}

function looksLikeSomethingElse(value: string, numeric: boolean, ctx: Context, near: Near): boolean {
  const { before, after, line } = ctx;
  const { adjacent } = near;
  if (CURRENCY_BEFORE.test(before) || CURRENCY_AFTER.test(after) || UNIT_AFTER.test(after)) return true;
  if (LABEL_BEFORE.test(before) || PROMO_LINE.test(line)) return true;
  if (!numeric) return false;
  if (DIGIT_GROUP_BEFORE.test(before) || DIGIT_GROUP_AFTER.test(after)) return true;
  if (isYearValue(value)) {
    if (YEAR_BEFORE.test(before) || YEAR_AFTER.test(after)) return true;
    // "Verification update for 2026" is a year; "code: 2019", "2019 is your code" or a lone "2019" are codes
    const shownAsCode =
      near.rightAfter ||
      (adjacent && /^\s*(?:is|ist|est|es|è|は|为|是)\s/iu.test(after)) ||
      ctx.aloneOnLine ||
      ctx.ownElement;
    if (!shownAsCode) return true;
  }
  if (value.length > 5 || adjacent) return false;
  return STATE_BEFORE.test(before) || (/(?:^|[,\n])\s*$/.test(before) && CITY_AFTER.test(after));
}

function isYearValue(value: string): boolean {
  return value.length === 4 && Number(value) >= 1900 && Number(value) <= 2099;
}

/** 100 at a code word, minus half the cost; alone on its line or in its own element adds, six digits a little. */
function score(value: string, numeric: boolean, ctx: Context, near: Near): number {
  if (near.cost === Infinity) return 0;
  let s = 100 - near.cost * 0.5;
  if (ctx.aloneOnLine) s += 20;
  else if (ctx.ownElement) s += 12;
  if (numeric) s += value.length === 6 ? 6 : 3;
  return s;
}
