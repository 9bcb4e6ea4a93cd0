// The language and time zone every login context presents (docs/login-service.md#bot-walls): this computer's, set on each context
// explicitly, so that the login's answer can say what the site saw (a state's `browser`) and an agent can present the
// same.
//
// Why the machine's and not Chromium's own defaults: the site sees the person's IP address, and a time zone or
// language that contradicts it is a classic sign of a bot (a browser in UTC behind a Berlin address). Chromium's own
// default language is not the machine's everywhere (headless Chromium on Linux says en-US whatever LANG says), while
// its time zone is; set explicitly, both are the machine's in every mode (headless, headed, own Chrome), and an agent
// whose browser runs elsewhere (a container in UTC) is told what to present.

/** The language of this computer as BCP 47 (de-DE), from the POSIX locale variables, else Intl's, else en-US. */
export function machineLocale(
  env: NodeJS.ProcessEnv = process.env,
  intlLocale = Intl.DateTimeFormat().resolvedOptions().locale,
): string {
  // POSIX order for messages: LC_ALL overrides LC_MESSAGES, which overrides LANG.
  const posix = env.LC_ALL || env.LC_MESSAGES || env.LANG;
  const fromPosix = posix ? bcp47FromPosix(posix) : undefined;
  return fromPosix ?? canonical(intlLocale) ?? 'en-US';
}

/** `de_DE.UTF-8@euro` -> `de-DE`; C, POSIX and anything that is no language tag -> undefined. */
function bcp47FromPosix(value: string): string | undefined {
  const name = value.split(/[.@]/)[0]!;
  if (!name || name === 'C' || name === 'POSIX') return undefined;
  return canonical(name.replace(/_/g, '-'));
}

function canonical(tag: string | undefined): string | undefined {
  if (!tag || tag === 'und') return undefined;
  try {
    const [first] = Intl.getCanonicalLocales(tag);
    return first && first !== 'und' ? new Intl.Locale(first).baseName : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This computer's IANA time zone (Europe/Berlin): TZ when it names one (as it does for the app's own process and the
 * browsers it starts), else the system's as Intl reads it, else UTC (a POSIX TZ rule Intl cannot name).
 */
export function machineTimeZone(
  env: NodeJS.ProcessEnv = process.env,
  intlZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  return knownZone(env.TZ?.replace(/^:/, '')) ?? knownZone(intlZone) ?? 'UTC';
}

function knownZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
