// Suites that need a part of the system (firefox-esr, Xvfb, a Secret Service keyring) skip where it is missing on a
// developer's machine, but under CI a skip would make a green run claim what it did not test: there the missing part
// fails the file instead. CI (.ci/run after `scripts/bootstrap.mjs --test`, or the GitHub workflow) installs them all.
// The one exception is the Electron binary, which electron's install script downloads and which may be impossible
// to fetch: that suite is skipped everywhere and says why (`reportSkipped`).

/** Whether this run is CI's: CI=true or CI=1, as GitHub Actions and the .ci/run caller set it. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci === 'true' || ci === '1';
}

/**
 * Whether a suite that needs `name` can run. Missing outside CI: a console line saying so, and false (skip the
 * suite with it). Missing under CI: throws, so the test file fails. `reason` says how to get the part.
 */
export function requireSystemPart(
  name: string,
  available: boolean,
  reason: string,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (available) return true;
  if (inCi(env)) {
    throw new Error(
      `${name} is missing (${reason}). Under CI every system part the tests use must be there ` +
        '(scripts/bootstrap.mjs --test installs them): a skipped suite would make the run green without running it.',
    );
  }
  console.warn(`skipped: ${name} is missing (${reason}); under CI this fails instead`);
  return false;
}

/** For the one part CI may lack (the Electron binary): skipped everywhere, with a console line saying why. */
export function reportSkipped(name: string, reason: string | null): boolean {
  if (reason === null) return true;
  console.warn(`skipped: ${name} (${reason})`);
  return false;
}

/** A suite's title that says, when it is skipped, why, so vitest's list of skipped tests shows it. */
export function titleWithSkip(title: string, runs: boolean, why: string): string {
  return runs ? title : `${title} (skipped: ${why})`;
}

/**
 * A Secret Service keyring on a private D-Bus session (scripts/with-keyring.sh, which npm test uses on Linux).
 * Only Linux CI provides one; elsewhere the keychain suites skip as before, whatever CI says.
 */
export function keyringAvailable(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const has = !!env.DBUS_SESSION_BUS_ADDRESS;
  if (platform !== 'linux') return has;
  return requireSystemPart(
    'a Secret Service keyring (no DBUS_SESSION_BUS_ADDRESS)',
    has,
    'run the tests inside scripts/with-keyring.sh, as npm test does',
    env,
  );
}
