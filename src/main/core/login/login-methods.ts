import type { LoginMethodInfo } from '../../../shared/login.schema.js';

/**
 * The login methods this version serves, with what each needs (GET /api/login/methods): the
 * desktop app's method menu and agents read it instead of hard-coding the list.
 */
export const LOGIN_METHOD_INFO: readonly LoginMethodInfo[] = [
  {
    id: 'password',
    label: 'Password',
    description: 'Username and password on the site’s login form (identifier-first, iframes and HTTP auth included)',
    needs: ['cred.username', 'cred.password'],
    optional: ['cred.totpSecret', 'additionalFields'],
  },
  {
    id: 'otp_email',
    label: 'Email code',
    description: 'A one-time code the site emails; read from a mailbox (IMAP) or POST /api/login/inbox',
    needs: ['cred.username (an email) or additionalFields.email'],
    optional: ['cred.password', 'additionalFields'],
  },
  {
    id: 'magic_link',
    label: 'Magic link',
    description: 'A sign-in link the site emails; read from a mailbox (IMAP) or POST /api/login/inbox',
    needs: ['cred.username (an email) or additionalFields.email'],
    optional: ['additionalFields'],
  },
  {
    id: 'totp',
    label: 'Authenticator (TOTP)',
    description: 'Password, then a code computed from the authenticator secret',
    needs: ['cred.username', 'cred.password', 'cred.totpSecret'],
    optional: ['additionalFields'],
  },
  {
    id: 'otp_sms',
    label: 'SMS code',
    description: 'A code the site texts, forwarded to POST /api/login/inbox',
    needs: ['additionalFields.phone'],
    optional: ['cred.username', 'cred.password'],
  },
  {
    id: 'oauth_google',
    label: 'Sign in with Google',
    description: 'The site’s Google button, then Google’s pages (redirect or popup)',
    needs: ['cred.username', 'cred.password'],
    optional: ['cred.totpSecret'],
  },
  {
    id: 'oauth_github',
    label: 'Sign in with GitHub',
    description: 'The site’s GitHub button, then GitHub’s pages (redirect or popup)',
    needs: ['cred.username', 'cred.password'],
    optional: ['cred.totpSecret'],
  },
];
