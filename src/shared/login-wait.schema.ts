// GET /api/login/{id}?wait=S: how long the answer may be held for a login's change (a long poll). Pure: zod only.
import { z } from 'zod';

/** The longest a GET /api/login/{id} waits for the login's change (seconds). */
export const LOGIN_WAIT_MAX_SEC = 60;

export const LoginStatusQuerySchema = z.object({
  wait: z.coerce
    .number()
    .int()
    .min(1)
    .max(LOGIN_WAIT_MAX_SEC)
    .optional()
    .describe(
      `Seconds (1-${LOGIN_WAIT_MAX_SEC}) to hold the answer until the login no longer stands where it stood: a running ` +
        'login waits for a person or ends; one waiting for a person ends (or waits on a new link). Then, or after ' +
        'that long, the login as it stands. An ended login answers at once; without wait, at once too.',
    ),
});
