import { describe, expect, it } from 'vitest';
import { findCode } from '../../../../src/main/core/login/codes/find-code.js';

type Msg = { subject?: string; text?: string; html?: string };

/** A typical transactional-mail shell: preheader, logo, layout tables, footer with address, year and links. */
function mailHtml(body: string, footer = 'Acme Inc., 548 Market St, San Francisco, CA 94104'): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>td{font-family:Arial} .code{font-size:32px}</style>
<script>window.dataLayer=[{id:884422}]</script></head><body>
<table width="100%" cellpadding="0"><tr><td align="center"><img src="https://cdn.acme.com/logo-2026.png" alt="Acme" width="120"></td></tr>
<tr><td>${body}</td></tr>
<tr><td style="color:#999;font-size:12px">© 2026 ${footer}<br><a href="https://acme.com/unsubscribe?u=123456">Unsubscribe</a> ·
<a href="https://acme.com/privacy">Privacy</a></td></tr></table>
<img src="https://t.acme.com/open.gif?m=991234" width="1" height="1" alt=""></body></html>`;
}

const CODES: Array<[name: string, msg: Msg, code: string]> = [
  [
    'GitHub device verification (text)',
    {
      subject: '[GitHub] Please verify your device',
      text: `Hey octocat!

A sign in attempt requires further verification because we did not recognize your device. To complete the sign in, enter the verification code on the unrecognized device.

Device: Chrome on Linux
Verification code: 482913

If you did not attempt to sign in to your account, your password may be compromised. Visit https://github.com/settings/security to create a new, strong password for your GitHub account.

Thanks,
The GitHub Team`,
    },
    '482913',
  ],
  [
    'Slack confirmation code in its own cell',
    {
      subject: 'Slack confirmation code: K7Q-2MX',
      html: mailHtml(`<h1>Confirm your email address</h1>
<p>Your confirmation code is below — enter it in your open browser window and we'll help you get signed in.</p>
<table><tr><td class="code" style="background:#f4f4f4;font-size:30px;padding:24px"><b>K7Q-2MX</b></td></tr></table>
<p>If you didn't request this email, there's nothing to worry about — you can safely ignore it.</p>`),
    },
    'K7Q2MX',
  ],
  [
    'Microsoft account security code',
    {
      subject: 'Microsoft account security code',
      text: `Microsoft account
Security code

Please use the following security code for the Microsoft account ju***@example.com.

Security code: 7301845

If you don't recognize the Microsoft account ju***@example.com, you can click https://account.live.com/dp?token=abc to remove your email address from that account.

Thanks,
The Microsoft account team`,
    },
    '7301845',
  ],
  [
    'Google verification code, HTML only',
    {
      subject: 'Google Verification Code',
      html: mailHtml(
        `<div style="font-size:14px">Google</div><div>Verify your email address</div>
<div>Google received a request to use <a href="mailto:ju@example.com">ju@example.com</a> as a recovery email for Google Account ju@gmail.com.</div>
<div>Use this code to finish setting up this recovery email:</div><div style="font-size:36px;letter-spacing:6px">590137</div>
<div>This code will expire in 24 hours.</div>`,
        'Google LLC, 1600 Amphitheatre Parkway, Mountain View, CA 94043, USA',
      ),
    },
    '590137',
  ],
  [
    'Notion temporary login code',
    {
      subject: 'Your temporary Notion login code is ZX4-19Q',
      text: 'Login code\n\nCopy and paste this temporary login code:\n\nZX4-19Q\n\nIf you did not try to log in, you can safely ignore this email.\n\nNotion Labs, Inc., 2300 Harrison St, San Francisco, CA 94110',
    },
    'ZX419Q',
  ],
  [
    'Stripe code with a dash',
    {
      subject: 'Your Stripe verification code',
      html: mailHtml(
        '<p>Hi Jamie,</p><p>Here is your Stripe verification code:</p><p style="font-size:28px"><strong>318-664</strong></p><p>This code expires in 10 minutes. Never share it with anyone.</p>',
        'Stripe, 354 Oyster Point Blvd, South San Francisco, CA 94080',
      ),
    },
    '318664',
  ],
  [
    'Shopify login code with order-free footer',
    {
      subject: 'Your Shopify login code',
      text: 'Hi there,\n\nYour login code is 604 218. It expires in 15 minutes.\n\nShopify Inc., 151 O’Connor Street, Ground floor, Ottawa, ON K2P 2L8, Canada',
    },
    '604218',
  ],
  ['Subject only', { subject: '845102 is your Acme verification code', text: '' }, '845102'],
  ['Uber SMS', { text: "Your Uber code is 1234. Don't share it." }, '1234'],
  ['Google SMS with G- prefix', { text: 'G-123456 is your Google verification code.' }, '123456'],
  ['bare SMS', { text: '903117' }, '903117'],
  ['SMS with sender tag only', { text: 'Acme: 771204' }, '771204'],
  [
    'WhatsApp-style SMS with a split code',
    {
      text: "Your WhatsApp code: 384-291\nYou can also tap on this link to verify your phone: v.whatsapp.com/384291\nDon't share this code with others",
    },
    '384291',
  ],
  [
    'German Bestätigungscode',
    {
      subject: 'Ihr Bestätigungscode',
      html: mailHtml(
        '<p>Hallo Max,</p><p>Ihr Bestätigungscode lautet:</p><p><strong style="font-size:24px">731 904</strong></p><p>Der Code ist 10 Minuten gültig. Bitte geben Sie ihn nicht weiter.</p>',
        'Beispiel GmbH, Hauptstraße 5, 10115 Berlin · Amtsgericht Berlin-Charlottenburg HRB 123456',
      ),
    },
    '731904',
  ],
  [
    'German Einmalcode in text',
    {
      text: 'Guten Tag,\n\nverwenden Sie den folgenden Einmalcode, um Ihre Anmeldung abzuschließen: 55093817\n\nMit freundlichen Grüßen\nIhr Team\nTel. +49 30 1234567',
    },
    '55093817',
  ],
  [
    'German Sicherheitscode with date',
    { text: 'Ihr Sicherheitscode für die Anmeldung am 23.11.2026 um 14:05 Uhr: 2741' },
    '2741',
  ],
  [
    'French code de vérification',
    {
      subject: 'Votre code de vérification',
      html: mailHtml(
        '<p>Bonjour,</p><p>Votre code de vérification est : <span style="font-weight:bold">482 913</span></p><p>Ce code expirera dans 15 minutes.</p>',
        'Exemple SAS, 12 rue de la Paix, 75002 Paris',
      ),
    },
    '482913',
  ],
  [
    'Spanish código',
    {
      text: 'Hola:\n\nTu código de verificación es 306118. Caduca en 10 minutos.\n\nSi no has solicitado este código, ignora este mensaje.',
    },
    '306118',
  ],
  ['Portuguese código', { text: 'Seu código de verificação do Nubank é 778201. Não compartilhe.' }, '778201'],
  ['Italian codice', { text: 'Il tuo codice di accesso è 4412 9087. Scade tra 5 minuti.' }, '44129087'],
  ['Dutch verificatiecode', { text: 'Je verificatiecode is 918273. Deze code is 10 minuten geldig.' }, '918273'],
  [
    'Japanese 認証コード with full-width digits',
    {
      subject: '【Acme】認証コードのお知らせ',
      text: 'いつもご利用ありがとうございます。\n\nログインするには、以下の認証コードを入力してください。\n\n認証コード：６２０４５１\n\n有効期限は10分です。\n\n株式会社Acme\n〒150-0002 東京都渋谷区渋谷2-21-1',
    },
    '620451',
  ],
  ['Chinese 验证码 SMS', { text: '【腾讯科技】验证码：583920，5分钟内有效。如非本人操作，请忽略本短信。' }, '583920'],
  ['Chinese 验证码 without separators', { text: '您的验证码为740193，请勿泄露给他人。' }, '740193'],
  ['Korean 인증번호', { text: '[Web발신]\n[네이버] 인증번호 [482017]를 입력해주세요.' }, '482017'],
  ['Korean 인증 코드', { text: '인증 코드: 663108. 타인에게 공유하지 마세요.' }, '663108'],
  ['X-style lower-case code right at its word', { text: 'Your X confirmation code is lzm4vhka' }, 'lzm4vhka'],
  [
    'Amazon OTP on its own line',
    {
      subject: 'Amazon password assistance',
      text: 'To authenticate, please use the following One Time Password (OTP):\n\n048213\n\nDo not share this OTP with anyone.',
    },
    '048213',
  ],
  ['letters-then-digits code right after its word', { text: 'Your Acme code: ABC123' }, 'ABC123'],
  [
    'code alone on its line after a long paragraph',
    {
      text: `We noticed a new sign-in to your Acme account and need to make sure it is you. Please use the verification code below on the page where you started signing in, on the same device and in the same browser, within the next ten minutes:

   771942

Questions? Reply to this email.`,
    },
    '771942',
  ],
  [
    'four-digit code that looks like a year, after its word',
    { text: 'Your Uber code is 2019. Never share it.' },
    '2019',
  ],
  ['four-digit code that looks like a year, before its word', { text: '1987 is your Acme login code' }, '1987'],
  [
    'label and code in two cells of one row',
    { html: '<table><tr><td>Your code</td><td>663201</td></tr><tr><td>Valid for</td><td>10 minutes</td></tr></table>' },
    '663201',
  ],
  [
    'resent code: the emphasised new code beats the old one mentioned in passing',
    {
      html: '<p>Your new verification code is <b>558213</b>. The code 440019 we sent earlier no longer works.</p>',
    },
    '558213',
  ],
  ['alphanumeric code without dash', { text: 'Your one-time passcode is A1B2C3. It expires in 5 minutes.' }, 'A1B2C3'],
  [
    'code next to an order number',
    { text: 'Order #123456 confirmation.\n\nTo view your order, enter your one-time code: 902211\n\nTotal: $1999' },
    '902211',
  ],
];

const DECOYS: Array<[name: string, msg: Msg, expected: string | undefined]> = [
  [
    'magic link mail with address and year',
    {
      subject: 'Verify your email to sign in',
      html: mailHtml(
        '<p>Click the button below to verify your email and sign in.</p><p><a href="https://acme.com/auth/verify?token=84422991">Verify email</a></p>',
      ),
    },
    undefined,
  ],
  [
    'receipt with prices and order number',
    { subject: 'Your receipt', text: 'Order #123456\nTotal: €12.50\nPaid: $1999\n1.999,00 EUR\nRef: 884422' },
    undefined,
  ],
  [
    'shipping notice, no code words',
    { text: 'Order 554433 shipped on 2026-11-23 at 12:30. Tracking: 1Z999AA10123456784' },
    undefined,
  ],
  [
    'newsletter footer',
    { text: 'Read our November 2026 update.\n\n© 2026 Acme Inc.\n100 Main Street, Springfield, IL 62701' },
    undefined,
  ],
  [
    'German footer with zip and register',
    { text: 'Bitte bestätigen Sie Ihre E-Mail-Adresse.\n\nBeispiel GmbH\nHauptstraße 5\n10115 Berlin\nHRB 123456' },
    undefined,
  ],
  [
    'phone number near code word',
    { text: 'Questions about your verification? Call us at +1 555 010 0199 or (555) 123-4567.' },
    undefined,
  ],
  [
    'promo code',
    { text: 'Use code SAVE20 for 20% off your next order. Promo code valid until December 2026.' },
    undefined,
  ],
  ['postal code and barcode', { text: 'Postal code: 94105\nBarcode 40081234 on your parcel.' }, undefined],
  ['two six-digit numbers without code words', { text: 'Ticket 448812 moved to queue 551002' }, undefined],
  ['SMS with two bare numbers', { text: '123456 654321' }, undefined],
  [
    'code mail that also lists an invoice number',
    { text: 'Invoice number: 445566\nYour security code is 3391' },
    '3391',
  ],
  [
    'code mail with year, price and phone around',
    {
      subject: 'Your Acme sign-in code',
      text: 'Your sign-in code: 810 442\n\nPlans from $1999/year. Call 1-800-555-0100.\n© 2026 Acme, 1 Infinite Loop, Cupertino, CA 95014',
    },
    '810442',
  ],
  [
    'year right after a code word is still a year in prose',
    { text: 'Verification of your account since 2019 is complete.' },
    undefined,
  ],
  ['price next to a code word', { text: 'Verify your purchase: 1499 € (USD 1620) for the annual plan.' }, undefined],
  ['duration next to a code word', { text: 'Your previous login code expired after 1440 minutes.' }, undefined],
  ['word-and-number token next to a code word', { text: 'Your COVID19 verification is complete.' }, undefined],
  ['promotion code at checkout', { text: 'Enter code SPRING25 at checkout.' }, undefined],
  [
    'numbers inside a text-part URL',
    { text: 'Open https://acme.com/verify?code=330022&uid=8812 to sign in.' },
    undefined,
  ],
  ['year a few words after a code word', { text: 'Verification update for 2026: new rules.' }, undefined],
  ['time and date only', { text: 'Your verification appointment: 2026-11-23, 12:30 – 13:45.' }, undefined],
];

describe('findCode', () => {
  it.each(CODES)('%s', (_name, msg, code) => {
    expect(findCode(msg)).toBe(code);
  });

  it.each(DECOYS)('decoy: %s', (_name, msg, expected) => {
    expect(findCode(msg)).toBe(expected);
  });

  it('prefers the code at its keyword over a number elsewhere in the same mail', () => {
    const html = mailHtml(
      '<p>Your account number 77441122 was used to sign in.</p><p>Enter this code:</p><table><tr><td><strong>550912</strong></td></tr></table>',
    );
    expect(findCode({ html })).toBe('550912');
  });

  it('ignores numbers inside styles, scripts, hrefs and image sources', () => {
    const html = mailHtml('<p>Your verification link: <a href="https://acme.com/v/330022">open</a></p>');
    expect(findCode({ html })).toBeUndefined();
  });

  it('reads the subject when the body has no code', () => {
    expect(findCode({ subject: 'Acme login code: 229184', text: 'See the subject line.' })).toBe('229184');
  });

  it('returns undefined for an empty message', () => {
    expect(findCode({})).toBeUndefined();
  });
});
