#!/usr/bin/env node
// Which code-signing and notarization secrets a release build has and which it lacks, by name only, so the
// maintainer sees in the run (a warning annotation, and a table in the job summary) that the installers are unsigned
// and what to add. .github/workflows/release.yml runs it in each OS's job before `npm run dist`; it never fails the
// job: an unsigned build is still a build (docs/desktop-app.md#installers-npm-run-dist). Run locally, it checks this shell's environment and
// prints the table. No value is ever printed, only whether each variable is set (non-empty). Node built-ins only.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What each OS's installers need, as electron-builder reads the environment (electron-builder.yml) and as the
 * release workflow passes it. Windows signs with WIN_CSC_* only: the workflow always sets WIN_CSC_LINK, empty when
 * the secret is missing, and electron-builder takes an empty WIN_CSC_LINK over CSC_LINK (which on the macOS job
 * is the Apple Developer ID certificate, no use to Windows). Linux packages (.deb, AppImage) are not code-signed.
 */
export const SIGNING_REQUIREMENTS = {
  darwin: [
    {
      step: 'code signing',
      secrets: {
        CSC_LINK: 'the Developer ID Application certificate (.p12, base64 or an https URL)',
        CSC_KEY_PASSWORD: "the certificate's password",
      },
      without: 'the .dmg and .zip are unsigned: on Apple silicon macOS calls the downloaded app "damaged"',
    },
    {
      step: 'notarization',
      secrets: {
        APPLE_ID: 'the Apple ID that notarizes',
        APPLE_APP_SPECIFIC_PASSWORD: 'its app-specific password',
        APPLE_TEAM_ID: 'the Developer Team ID',
      },
      without: 'the app is not notarized: Gatekeeper will not open it without a detour',
    },
  ],
  win32: [
    {
      step: 'code signing',
      secrets: {
        WIN_CSC_LINK: 'the Authenticode certificate (.pfx/.p12, base64 or an https URL)',
        WIN_CSC_KEY_PASSWORD: "the certificate's password",
      },
      without: 'the installer is unsigned: SmartScreen shows "Windows protected your PC"',
    },
  ],
  linux: [],
};

const OS_NAME = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

/** A variable counts as set when it is not empty: GitHub passes a missing secret as an empty string. */
const isSet = (env, name) => typeof env[name] === 'string' && env[name].trim() !== '';

/**
 * The check for `platform` against `env`: a row per secret (name, what it is, set or not) and, per step that
 * lacks any, what is missing and what that means. Values are read only to test for emptiness.
 */
export function signingCheck(platform, env) {
  const steps = SIGNING_REQUIREMENTS[platform] ?? [];
  const rows = [];
  const gaps = [];
  for (const { step, secrets, without } of steps) {
    const missing = [];
    for (const [name, what] of Object.entries(secrets)) {
      const set = isSet(env, name);
      rows.push({ name, what, set });
      if (!set) missing.push(name);
    }
    if (missing.length === 0) continue;
    const partly = missing.length < Object.keys(secrets).length;
    gaps.push({
      step,
      missing,
      // Some set and some not is worse than none: electron-builder then stops the build or signs with an empty
      // password (MacTargetHelper.getNotarizeOptions, platformPackager.getCscPassword).
      consequence: partly
        ? `${step} needs all of them; with only some, electron-builder stops the build or goes on without it, and ${without}`
        : without,
    });
  }
  return { os: OS_NAME[platform] ?? platform, signs: steps.length > 0, rows, gaps };
}

/** Escapes a workflow command's message (GitHub's rules: %, CR and LF). */
export const escapeData = (text) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** Escapes a workflow command's property value: the message's rules, and : and , too. */
export const escapeProperty = (text) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One `::warning::` line per step that lacks secrets. */
export function warningCommands(check) {
  return check.gaps.map(
    (gap) =>
      `::warning title=${escapeProperty(`${check.os} installers: no ${gap.step}`)}::` +
      escapeData(`Missing repository secrets: ${gap.missing.join(', ')}. ${capitalize(gap.consequence)}.`),
  );
}

const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The job summary's section: a table of the secrets, then what is missing and what it means. */
export function summaryMarkdown(check) {
  const lines = [`### Code signing: ${check.os}`, ''];
  if (!check.signs) {
    lines.push('The Linux packages (.deb, AppImage) are not code-signed; there are no signing secrets to check.', '');
    return lines.join('\n');
  }
  lines.push('| secret | what it is | status |', '| --- | --- | --- |');
  for (const row of check.rows) lines.push(`| \`${row.name}\` | ${row.what} | ${row.set ? 'set' : '**missing**'} |`);
  lines.push('');
  if (check.gaps.length === 0) lines.push(`The ${check.os} installers are signed${notarizedNote(check)}.`);
  for (const gap of check.gaps)
    lines.push(`- **No ${gap.step}** (missing ${gap.missing.map((n) => `\`${n}\``).join(', ')}): ${gap.consequence}.`);
  lines.push('');
  return lines.join('\n');
}

const notarizedNote = (check) => (check.rows.some((r) => r.name === 'APPLE_ID') ? ' and notarized' : '');

/** Prints the warnings and writes the summary (to $GITHUB_STEP_SUMMARY in a workflow, else to stdout). */
export function main({ platform = process.platform, env = process.env, out = process.stdout } = {}) {
  const check = signingCheck(platform, env);
  for (const line of warningCommands(check)) out.write(`${line}\n`);
  const summary = summaryMarkdown(check);
  if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `${summary}\n`);
  else out.write(`${summary}\n`);
  return check;
}

/** Whether this file is the script Node was asked to run (through symlinks too). */
function isMainScript() {
  try {
    return !!process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainScript()) main();
