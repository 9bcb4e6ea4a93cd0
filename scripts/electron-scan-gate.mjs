// The judgement of scripts/electron-scan.mjs, apart from running the scanner: which electronegativity
// findings fail `npm test`, given security/electronegativity-allowlist.json. Pure (no file system, no
// process), so test/unit/scripts/electronegativity-gate.test.ts feeds it sample findings.

export const FAILING_SEVERITIES = new Set(['HIGH', 'MEDIUM']);
/**
 * electronegativity 1.10.3 rates an explicit `nodeIntegration: true` INFORMATIONAL (HIGH only when the
 * Electron version's default turns it on); ARCHITECTURE.md forbids it outright, so it fails here too.
 */
export const RAISED_SEVERITY = { NODE_INTEGRATION_JS_CHECK: 'HIGH' };

export class AllowlistError extends Error {
  name = 'AllowlistError';
}

/**
 * Checks the parsed allowlist file: `{ entries: [{ check, file, code?, reason }] }`, `file` relative to
 * the repository root, `code` the flagged source line when the entry is pinned to one, `reason` a
 * sentence saying why the finding is acceptable. Throws AllowlistError naming the bad entry.
 */
export function parseAllowlist(data, source = 'allowlist') {
  if (!Array.isArray(data?.entries)) throw new AllowlistError(`${source}: expected an object with an "entries" array`);
  data.entries.forEach((entry, i) => {
    const where = `${source}: entries[${i}]`;
    for (const key of ['check', 'file', 'reason'])
      if (typeof entry?.[key] !== 'string' || !entry[key].trim())
        throw new AllowlistError(`${where} needs a non-empty "${key}"`);
    if (entry.code !== undefined && typeof entry.code !== 'string')
      throw new AllowlistError(`${where}: "code" must be a string`);
    if (entry.reason.trim().length < 20)
      throw new AllowlistError(`${where}: "reason" must say why the finding is acceptable`);
  });
  return data.entries;
}

/** An entry covers a finding of the same check in the same file, and on the same line of code if pinned. */
export function allowlistCovers(entry, finding) {
  return (
    entry.check === finding.check &&
    entry.file === finding.file &&
    (entry.code === undefined || entry.code === finding.code)
  );
}

/**
 * Judges one scan. `findings` are the scanner's ({ check, severity, file, line, column, code, description })
 * with `file` already relative to the repository root ('N/A' for project-wide checks); `errors` are the
 * files it could not parse ({ file, message, tolerable }). Returns the findings with their effective
 * severity, a report line per accepted or low finding, and the problems that fail the scan: a HIGH or
 * MEDIUM finding no entry covers, an entry that covers nothing any more, a file left unchecked.
 */
export function judgeScan({ findings, errors = [], allowlist }) {
  const judged = findings.map((f) => ({ ...f, severity: RAISED_SEVERITY[f.check] ?? f.severity }));
  const problems = [];
  const lines = [];
  for (const f of judged) {
    const label = `${f.severity} ${f.check} ${f.file}:${f.line}:${f.column}`;
    if (allowlist.some((entry) => allowlistCovers(entry, f)))
      lines.push(`  allowed  ${label} (reason in the allowlist)`);
    else if (FAILING_SEVERITIES.has(f.severity))
      problems.push(`${label}: ${f.description}${f.code ? `\n    ${f.code}` : ''}`);
    else lines.push(`  note     ${label}: ${f.description}`);
  }
  for (const entry of allowlist)
    if (!judged.some((f) => allowlistCovers(entry, f)))
      problems.push(`stale allowlist entry ${entry.check} ${entry.file}: it matches no finding any more; remove it`);
  for (const e of errors.filter((err) => !err.tolerable))
    problems.push(`${e.file} could not be parsed, so it was not checked: ${e.message}`);
  return { findings: judged, lines, problems };
}
