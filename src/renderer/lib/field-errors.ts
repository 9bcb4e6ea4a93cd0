// Errors of a form's fields, in plain words: the `details.issues` (`{ path, message }`) and
// `details.field` of a validation error from the API or the contract's argument check, matched to
// the form's fields by path, with zod's and the API's technical wording rewritten for people.
import { ApiError } from './api';

/** Field path ("imap.host", "cred.password") -> what to tell the person. */
export type FieldErrors = Record<string, string>;

/** The label of each field path the form shows; used to match issues and to name fields in messages. */
export type FieldLabels = Record<string, string>;

const RULES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/expected \w+, received (undefined|null)|^Required$/i, () => 'Required'],
  [/expected (number|int), received (string|nan)/i, () => 'Enter a number'],
  [/expected int, received number/i, () => 'Enter a whole number'],
  [
    /Too small: expected string to have >=?(\d+) characters?/i,
    (m) => (Number(m[1]) <= 1 ? 'Required' : `At least ${m[1]} characters`),
  ],
  [/Too big: expected string to have <=?(\d+) characters?/i, (m) => `At most ${m[1]} characters`],
  [/Too small: expected number to be >=?(-?[\d.]+)/i, (m) => `Must be ${m[1]} or more`],
  [/Too big: expected number to be <=?(-?[\d.]+)/i, (m) => `Must be ${m[1]} or less`],
  [
    /Too small: expected array to have >=?(\d+) items?/i,
    (m) => (Number(m[1]) <= 1 ? 'Add at least one' : `Add at least ${m[1]}`),
  ],
  [/Too big: expected array to have <=?(\d+) items?/i, (m) => `At most ${m[1]}`],
  [/^Invalid URL$/i, () => 'Enter a full address, like https://example.com'],
  [/^Invalid email/i, () => 'Enter an e-mail address, like ada@example.com'],
  [/^Invalid option: expected one of/i, () => 'Choose one of the options'],
  [/^Invalid string: must match pattern/i, () => 'Not in the expected format'],
  [/^Unrecognized key/i, () => 'Not expected here'],
];

/**
 * A validation message in plain words: zod's defaults rewritten, a schema's own message kept, field
 * paths named by their labels ("cred.totpSecret is required" -> "Authenticator secret is required").
 */
export function plainMessage(message: string, labels: FieldLabels = {}): string {
  const text = message.trim();
  for (const [pattern, say] of RULES) {
    const m = pattern.exec(text);
    if (m) return say(m);
  }
  let out = text;
  // Longest paths first, so "cred.password" wins over "password".
  for (const [path, label] of Object.entries(labels).sort((a, b) => b[0].length - a[0].length)) {
    out = out.split(path).join(label.toLowerCase());
  }
  out = out.replace(/ for loginMethod "[^"]+"/g, ' for this login method').replace(/^[a-z]+\.[\w.]+: /, '');
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/**
 * The video service's errors carry no details: its 400 for a bad request says
 * "Invalid body: title: Too small…; input_variables.0.key: …", which is read back into issues.
 */
function issuesInMessage(message: string): { path: string; message: string }[] {
  const m = /^Invalid (?:body|query|path): (.+)$/s.exec(message);
  if (!m) return [];
  return m[1].split('; ').map((part) => {
    const at = part.indexOf(': ');
    return at < 0 ? { path: '', message: part } : { path: part.slice(0, at), message: part.slice(at + 2) };
  });
}

/** The route part of an IPC argument path ("body.imap.host" -> "imap.host"). */
const withoutPart = (path: string) => path.replace(/^(body|params|query)(\.|$)/, '');

function fieldOf(path: string, fields: string[]): string | undefined {
  return (
    fields.find((f) => path === f) ??
    // An issue inside a field (addresses.2) belongs to it; a whole-object issue to its first field.
    fields.find((f) => path.startsWith(`${f}.`)) ??
    fields.find((f) => path !== '' && f.startsWith(`${path}.`))
  );
}

/**
 * Matches a failed call's issues to the form's fields. `fields` holds what could not be placed on a
 * field (shown above the form); nothing at all when the error is not about input.
 */
export function fieldErrorsFrom(err: unknown, labels: FieldLabels): { fields: FieldErrors; unplaced: string[] } {
  const fields: FieldErrors = {};
  const unplaced: string[] = [];
  if (!(err instanceof ApiError)) return { fields, unplaced };
  const known = Object.keys(labels);
  const issues = Array.isArray(err.details.issues)
    ? (err.details.issues as { path?: unknown; message?: unknown }[])
    : issuesInMessage(err.message);
  for (const issue of issues) {
    const path = withoutPart(String(issue.path ?? ''));
    const message = plainMessage(String(issue.message ?? ''), labels);
    const field = fieldOf(path, known);
    if (field) fields[field] ??= message;
    else unplaced.push(path ? `${labels[path] ?? path}: ${message}` : message);
  }
  if (typeof err.details.field === 'string') {
    const field = fieldOf(withoutPart(err.details.field), known);
    if (field) fields[field] ??= plainMessage(err.message, labels);
  }
  return { fields, unplaced };
}

/** Whether an error is about the input (then it is shown on the fields, not as a failure banner). */
export const isInputError = (err: unknown) =>
  err instanceof ApiError &&
  (err.code === 'validation_error' || err.code === 'INVALID_REQUEST' || err.code === 'conflict') &&
  (Array.isArray(err.details.issues) ||
    typeof err.details.field === 'string' ||
    issuesInMessage(err.message).length > 0);
