/** Where a login stopped that a person can finish on its live page (GET /api/login/{id} `reason`). */
export const PERSON_REASONS = ['captcha_blocked', 'bot_detected', 'mfa_required', 'login_form_not_found'] as const;
export type PersonReason = (typeof PERSON_REASONS)[number];

/** What the person does on the live page, in the words of the window's banner, its notification and the page. */
export const PERSON_TASK: Record<PersonReason, string> = {
  captcha_blocked: 'solve the CAPTCHA, then sign in',
  bot_detected: 'sign in on the page (the site refused the automated browser)',
  mfa_required: 'enter the sign-in code',
  login_form_not_found: 'sign in on the page',
};

export const isPersonReason = (r: string): r is PersonReason => (PERSON_REASONS as readonly string[]).includes(r);
