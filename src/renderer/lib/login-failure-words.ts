// A failed login in words: what happened and what the person can do next, instead of the service's code
// (AUTHENTICATION_FAILED, LOGIN_FORM_NOT_FOUND…). The code stays with the words, last, for a bug report.

export interface LoginFailureWords {
  /** What happened, as a heading. */
  title: string;
  /** What to do about it. */
  next: string;
}

const WORDS: Record<string, LoginFailureWords> = {
  AUTHENTICATION_FAILED: {
    title: 'The site refused the sign-in',
    next: 'Check the username and password (or the code), sign in once in a browser to be sure they work, then run the login again.',
  },
  LOGIN_FORM_NOT_FOUND: {
    title: 'No sign-in form was found on that page',
    next: 'Give the address of the page that shows the sign-in form (not the home page), or tick “Let me finish it here”.',
  },
  MFA_REQUIRED: {
    title: 'The site asks for a second step',
    next: 'Add an authenticator secret or a mailbox for the code, or tick “Let me finish it here” and give the code yourself.',
  },
  CAPTCHA_BLOCKED: {
    title: 'A CAPTCHA stopped the login',
    next: 'Tick “Let me finish it here” and run it again: you solve the CAPTCHA in the window.',
  },
  BOT_DETECTED: {
    title: 'The site refused the browser as automated',
    next: 'Try again later, or sign in in your own browser and import the session from Your browsers.',
  },
  ACCOUNT_LOCKED: {
    title: 'The site says the account is locked',
    next: 'Unlock it on the site (its own recovery steps), then run the login again.',
  },
  SITE_UNREACHABLE: {
    title: 'The site could not be reached',
    next: 'Check the address and this computer’s connection, then run the login again.',
  },
  LOGIN_TIMEOUT: {
    title: 'The login took too long',
    next: 'Run it again; if a code was awaited, check the mailbox that should deliver it.',
  },
  CREDENTIALS_REQUIRED: {
    title: 'The site asks for a password that was not given',
    next: 'Fill in the password for this login method, then run it again.',
  },
  SECRETS_MISSING: {
    title: 'A secret this login needs is not on this computer',
    next: 'Enter the saved login’s password again (Saved logins), then run it again.',
  },
  BROWSER_NOT_FOUND: {
    title: 'No browser to log in with was found',
    next: 'Install Chrome, Edge or Chromium, or choose another browser mode in Settings.',
  },
};

/** The words for a failed login's code (a generic heading and the service's message for a code not listed). */
export function loginFailureWords(code: string): LoginFailureWords {
  return (
    WORDS[code] ?? { title: 'The login failed', next: 'Read the reason above, fix what it names, and run it again.' }
  );
}
