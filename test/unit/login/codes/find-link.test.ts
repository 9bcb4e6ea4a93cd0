import { describe, expect, it } from 'vitest';
import { findSignInLink } from '../../../../src/main/core/login/codes/find-link.js';

type Msg = { subject?: string; text?: string; html?: string };

const TARGET = { url: 'https://app.acme.com/login' };
const MAGIC = 'https://app.acme.com/auth/magic?token=Zk3q9XvA1bC7dE5fG2hJ&email=ju%40example.com';

/** Header, body, footer with the usual noise: logo link, help, preferences, unsubscribe, privacy, pixel. */
function mail(body: string): string {
  return `<!doctype html><html><head><title>Sign in to Acme</title><style>a{color:#06c}</style></head><body>
<table><tr><td><a href="https://acme.com/"><img src="https://cdn.acme.com/logo.png" alt="Acme"></a></td></tr>
<tr><td>${body}</td></tr>
<tr><td style="font-size:12px"><a href="https://acme.com/help">Help center</a> ·
<a href="https://app.acme.com/settings/notifications?token=Pq8Wm2Xz7Lk4Jh6Gf1Ds">Email preferences</a> ·
<a href="https://app.acme.com/email/unsubscribe?u=98aa71c3e0d94f5b&amp;list=7">Unsubscribe</a> ·
<a href="https://acme.com/legal/privacy">Privacy</a> · <a href="mailto:support@acme.com">support@acme.com</a></td></tr></table>
<img src="https://app.acme.com/track/open?m=Hx81Kd92LmQ7Pz3Rt0Vw" width="1" height="1" alt=""></body></html>`;
}

const CASES: Array<[name: string, msg: Msg, target: { url: string }, expected: string | undefined]> = [
  [
    'magic-link button among footer links (href with &amp;)',
    {
      html: mail(
        `<h1>Sign in to Acme</h1><p>Click the button below to sign in. This link expires in 15 minutes.</p>
<a href="${MAGIC.replace('&', '&amp;')}" style="background:#06c;color:#fff;padding:12px 24px">Sign in to Acme</a>
<p>If you didn't request this email, you can safely ignore it.</p>`,
      ),
    },
    TARGET,
    MAGIC,
  ],
  [
    'Slack-style: button text "Confirm email", a same-domain link in the body that is not it',
    {
      html: mail(
        `<p>Confirm your email address to get started on <a href="https://acme.com/features">Acme</a>.</p>
<p><a href="https://app.acme.com/confirm/a1B2c3D4e5F6g7H8i9J0">Confirm email address</a></p>`,
      ),
    },
    TARGET,
    'https://app.acme.com/confirm/a1B2c3D4e5F6g7H8i9J0',
  ],
  [
    'German "Jetzt anmelden" with a link on the bare registrable domain',
    {
      html: mail(
        '<p>Hallo,</p><p>klicken Sie auf den folgenden Link, um sich anzumelden:</p><p><a href="https://acme.com/l/9fKq2LmX8pRt4VwZ">Jetzt anmelden</a></p>',
      ),
    },
    TARGET,
    'https://acme.com/l/9fKq2LmX8pRt4VwZ',
  ],
  [
    'Japanese ログイン button',
    {
      html: mail(
        '<p>以下のボタンをクリックしてログインしてください。</p><p><a href="https://app.acme.com/session/new?t=8fA2kLq9Zx3Vb7Nm">ログイン</a></p>',
      ),
    },
    TARGET,
    'https://app.acme.com/session/new?t=8fA2kLq9Zx3Vb7Nm',
  ],
  [
    'redirector that wraps the target (?url=) is unwrapped',
    {
      html: mail(
        `<p><a href="https://click.mailer-example.net/r?url=${encodeURIComponent(MAGIC)}&amp;id=77">Log in</a></p>`,
      ),
    },
    TARGET,
    MAGIC,
  ],
  [
    'Outlook safelinks wrapper (?url= plus data) is unwrapped',
    {
      html: `<a href="https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(MAGIC)}&amp;data=05%7C02%7C&amp;reserved=0">Sign in</a>`,
    },
    TARGET,
    MAGIC,
  ],
  [
    'redirector that encodes the wrapped URL twice',
    {
      html: `<a href="https://r.mailer-example.net/x?u=${encodeURIComponent(encodeURIComponent(MAGIC))}">Sign in</a>`,
    },
    TARGET,
    MAGIC,
  ],
  [
    'anchor whose text is the URL itself: its token is what marks it',
    {
      html: mail(
        '<p>Paste this into your browser:</p><p><a href="https://app.acme.com/m/Ab12Cd34Ef56Gh78Ij90">https://app.acme.com/m/Ab12Cd34Ef56Gh78Ij90</a></p>',
      ),
    },
    TARGET,
    'https://app.acme.com/m/Ab12Cd34Ef56Gh78Ij90',
  ],
  [
    'redirector that wraps another site is ignored',
    {
      html: `<p><a href="https://click.mailer-example.net/r?u=${encodeURIComponent('https://evil.example/login?token=Ab12Cd34Ef56Gh78')}">Sign in</a></p>`,
    },
    TARGET,
    undefined,
  ],
  [
    'only links to another site',
    {
      html: mail(
        '<p><a href="https://login.other-site.com/magic?token=Zk3q9XvA1bC7dE5fG2hJ">Sign in</a></p><p><a href="https://acme-login.com/verify?token=Zk3q9XvA1bC7dE5f">Verify</a></p>',
      ),
    },
    TARGET,
    undefined,
  ],
  [
    'only footer links (help, preferences with a token, unsubscribe, privacy, pixel, mailto)',
    { html: mail('<p>Your weekly Acme digest is ready.</p>') },
    TARGET,
    undefined,
  ],
  [
    'plain-text part: URL on its own line after "sign in" sentence, unsubscribe URL after it',
    {
      text: `Hi Ju,

Use the link below to sign in to Acme:

https://app.acme.com/auth/callback?code=Qw7Er9Ty2Ui4Op6As8Df&amp;state=xyz.

Need help? Contact us at https://acme.com/help
Unsubscribe: https://app.acme.com/unsubscribe?u=98aa71c3e0d94f5b`,
    },
    TARGET,
    'https://app.acme.com/auth/callback?code=Qw7Er9Ty2Ui4Op6As8Df&state=xyz',
  ],
  [
    'plain-text URL followed by a "wasn\'t you" report link',
    {
      text: 'Log in: https://app.acme.com/magic/Qw7Er9Ty2Ui4Op6As8Df\nNot you? Report it: https://app.acme.com/report/Qw7Er9Ty2Ui4Op6As8Df',
    },
    TARGET,
    'https://app.acme.com/magic/Qw7Er9Ty2Ui4Op6As8Df',
  ],
  [
    'local target: same IP, other port is fine, localhost is not the same host',
    {
      html: `<a href="http://localhost:4000/login?token=Ab12Cd34Ef56Gh78">Sign in (localhost)</a>
<a href="http://127.0.0.1:4001/login/verify?token=Zy98Xw76Vu54Ts32">Sign in</a>`,
    },
    { url: 'http://127.0.0.1:4000/signin' },
    'http://127.0.0.1:4001/login/verify?token=Zy98Xw76Vu54Ts32',
  ],
  [
    'co.uk target: sibling domain under co.uk is another site',
    {
      html: `<a href="https://shop.co.uk/login?token=Ab12Cd34Ef56Gh78">Sign in</a>
<a href="https://accounts.acme.co.uk/login?token=Zy98Xw76Vu54Ts32">Sign in</a>`,
    },
    { url: 'https://www.acme.co.uk/' },
    'https://accounts.acme.co.uk/login?token=Zy98Xw76Vu54Ts32',
  ],
  [
    'IP target: another IP is another site',
    { html: '<a href="http://10.0.0.1:4000/login?token=Ab12Cd34Ef56Gh78">Sign in</a>' },
    { url: 'http://127.0.0.1:4000/signin' },
    undefined,
  ],
  [
    'same-site links whose text alone says they are not it (opaque tracked URLs)',
    {
      html: `<p><a href="https://app.acme.com/e/Ab12Cd34Ef56Gh78Ij90">Unsubscribe from these emails</a></p>
<p><a href="https://app.acme.com/e/Zy98Xw76Vu54Ts32Rq10">View this email in your browser</a></p>
<p><a href="https://app.acme.com/e/Mn34Bv56Cx78Za90Lk12">Wasn't you? Let us know</a></p>`,
    },
    TARGET,
    undefined,
  ],
  [
    'neutral link text, but the host or path says help, preferences or password reset',
    {
      html: `<p>To continue, <a href="https://help.acme.com/a/Ab12Cd34Ef56Gh78Ij90">click here</a>.</p>
<p><a href="https://app.acme.com/email_preferences/Zy98Xw76Vu54Ts32Rq10">click here</a></p>
<p><a href="https://app.acme.com/users/reset-password?t=Mn34Bv56Cx78Za90Lk12">click here</a></p>`,
    },
    TARGET,
    undefined,
  ],
  [
    'a sign-up invitation is not a sign-in link',
    { html: '<p><a href="https://app.acme.com/invite/Ab12Cd34Ef56Gh78Ij90">Create your account</a></p>' },
    TARGET,
    undefined,
  ],
  [
    'a tracking image wrapped in a link is not the sign-in link',
    {
      html: `<a href="https://app.acme.com/o/Hx81Kd92LmQ7Pz3Rt0Vw.gif"><img src="https://app.acme.com/o/p.gif" alt=""></a>`,
    },
    TARGET,
    undefined,
  ],
  [
    'shared hosting: another github.io site is another owner',
    { html: '<a href="https://mallory.github.io/login?token=Ab12Cd34Ef56Gh78">Sign in</a>' },
    { url: 'https://alice.github.io/app/' },
    undefined,
  ],
];

describe('findSignInLink', () => {
  it.each(CASES)('%s', (_name, msg, target, expected) => {
    expect(findSignInLink(msg, target)).toBe(expected);
  });

  it('prefers the sign-in link over a same-site token link with neutral text', () => {
    const html = `<a href="https://app.acme.com/docs/getting-started?ref=Ab12Cd34Ef56Gh78">Read the guide</a>
<a href="https://app.acme.com/login/email?token=Zy98Xw76Vu54Ts32">Continue to Acme</a>`;
    expect(findSignInLink({ html }, TARGET)).toBe('https://app.acme.com/login/email?token=Zy98Xw76Vu54Ts32');
  });

  it('chooses by link text when the URLs look alike (tracked links)', () => {
    const html = `<p>Ju shared a page with you: <a href="https://app.acme.com/e/Ab12Cd34Ef56Gh78Ij90">Q3 planning</a></p>
<p><a href="https://app.acme.com/e/Zy98Xw76Vu54Ts32Rq10">Log in to Acme</a></p>`;
    expect(findSignInLink({ html }, TARGET)).toBe('https://app.acme.com/e/Zy98Xw76Vu54Ts32Rq10');
  });

  it('reads the line before a bare URL that stands alone on its line', () => {
    const text = `Ju shared a page with you:
https://app.acme.com/e/Ab12Cd34Ef56Gh78Ij90

Sign in with this link:
https://app.acme.com/e/Zy98Xw76Vu54Ts32Rq10`;
    expect(findSignInLink({ text }, TARGET)).toBe('https://app.acme.com/e/Zy98Xw76Vu54Ts32Rq10');
  });

  it('does not read "sign in" inside other words ("Design inspiration")', () => {
    const html = `<a href="https://app.acme.com/blog/Ab12Cd34Ef56Gh78Ij90">Design inspiration</a>
<a href="https://app.acme.com/e/Zy98Xw76Vu54Ts32Rq10">Continue to Acme</a>`;
    expect(findSignInLink({ html }, TARGET)).toBe('https://app.acme.com/e/Zy98Xw76Vu54Ts32Rq10');
  });

  it('takes a bare home-page link for nothing', () => {
    expect(findSignInLink({ html: '<a href="https://app.acme.com/">Acme</a>' }, TARGET)).toBeUndefined();
  });

  it('returns undefined for an invalid target or a message without links', () => {
    expect(findSignInLink({ html: `<a href="${MAGIC}">Sign in</a>` }, { url: 'not a url' })).toBeUndefined();
    expect(findSignInLink({ text: 'Your code is 123456' }, TARGET)).toBeUndefined();
  });
});
