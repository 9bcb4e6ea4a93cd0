import type { Migration } from './migration.js';

/**
 * A saved login's own login browser (docs/login-service.md#bot-walls): the browser mode its logins use when the request names none
 * (headless, headed, own-chrome). NULL, as on every row before: the request's, else the server's browser.mode.
 */
export const m0024: Migration = {
  version: 24,
  name: 'saved logins: login browser mode',
  sql: `ALTER TABLE saved_logins ADD COLUMN browser_mode TEXT CHECK (browser_mode IN ('headless', 'headed', 'own-chrome'));`,
};
