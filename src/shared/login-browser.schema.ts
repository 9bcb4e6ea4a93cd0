// The login browser in the API: which one runs a login (a request's or a saved login's `browser.mode`), and what it
// presented to the site (a state's `browser`), which an agent's context should present as well. Pure: only zod.
import { z } from 'zod';

/**
 * Which browser runs a login (docs/login-service.md#bot-walls): `headless` (the default: the found Chromium, no window),
 * `headed` (the same browser with a real window, kept off-screen; on Linux without a display the app's own Xvfb),
 * `own-chrome` (the Google Chrome, Edge or Chromium installed on this computer, with a window as headed).
 */
export const BROWSER_MODES = ['headless', 'headed', 'own-chrome'] as const;
export type BrowserMode = (typeof BROWSER_MODES)[number];

/** A request's or a saved login's choice of login browser. */
export const BrowserChoiceSchema = z
  .object({
    mode: z
      .enum(BROWSER_MODES)
      .describe(
        'headless (default): no window; headed: a real window kept off-screen, for sites that refuse headless ' +
          'browsers; own-chrome: the Chrome, Edge or Chromium installed on this computer, with a window',
      ),
  })
  .strict()
  .meta({ id: 'BrowserChoice' });
export type BrowserChoice = z.infer<typeof BrowserChoiceSchema>;

/** What the login browser presented to the site while it made the session (a state's `browser`). */
export const LoginBrowserSchema = z
  .object({
    userAgent: z.string().describe('The User-Agent header and navigator.userAgent the site saw'),
    locale: z.string().describe('navigator.language, Accept-Language and Intl formatting (BCP 47, e.g. en-US)'),
    timezoneId: z.string().describe('The IANA time zone the pages saw (e.g. Europe/Berlin)'),
  })
  .meta({
    id: 'LoginBrowser',
    description:
      'What the login browser presented while it made the session. An agent that loads the state should present ' +
      "the same: browser.newContext({ storageState, userAgent, locale, timezoneId }) (the typed client's " +
      'newLoggedInContext does). A site may tie a session to them and end it, or ask again, when they change. Client ' +
      "hints (Sec-CH-UA) come from the agent's own browser: a Chromium of the major version the user agent names " +
      'keeps them in line. Absent when no login browser made the session (imported from a browser profile) or when ' +
      'it was cached by an older version',
  });
export type LoginBrowser = z.infer<typeof LoginBrowserSchema>;
