// The JSON side of the export parsers: JSON.parse with an error that names the line and column (V8's own message can
// quote the file, so it is never passed on), and readers that check the shape and name the JSON path of a fault.
import { ExportFileError } from './export-types.js';

/** Parses `text` (a `what` file: "Bitwarden export", "1PUX export.data"); a syntax error names its line and column. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const offset = errorOffset(text, err instanceof Error ? err.message : '');
    const { line, column } = lineColumn(text, offset);
    throw new ExportFileError(
      `line ${line}, column ${column}: this ${what} is not valid JSON` +
        (offset >= text.length ? ' (the file ends too early: is it cut off?)' : ''),
      line,
      column,
    );
  }
}

/** V8's "at position N" when it gives one (not always: "Unexpected token…" quotes the text instead), else a scan. */
function errorOffset(text: string, message: string): number {
  const m = /at position (\d+)/.exec(message);
  if (m) return Math.min(Number(m[1]), text.length);
  const offset = syntaxErrorOffset(text);
  return offset < 0 ? text.length : offset;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The offset of the first JSON syntax error in `s` (text.length: it ends too early; -1: none). */
export function syntaxErrorOffset(s: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r') i++;
  };
  const string = () => {
    i++; // the opening quote
    while (i < s.length) {
      const c = s[i];
      if (c === '"') return void i++;
      if (c === '\\') {
        i++;
        if (s[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if (s[i] !== undefined && '"\\/bfnrt'.includes(s[i])) i++;
        else fail();
      } else if (c < ' ') fail();
      else i++;
    }
    fail();
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (s[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (s[i] !== '"') fail();
          string();
          ws();
          if (s[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (s[i] === ',') i++;
        else if (s[i] === close) return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    NUMBER.lastIndex = i;
    if (NUMBER.test(s)) return void (i = NUMBER.lastIndex);
    for (const literal of ['true', 'false', 'null']) if (s.startsWith(literal, i)) return void (i += literal.length);
    fail();
  };
  try {
    value();
    ws();
    if (i < s.length) fail();
    return -1;
  } catch (at) {
    if (typeof at === 'number') return at;
    throw at;
  }
}

/** A fault in the shape of a JSON export: the message names the JSON path, never a value. */
export function shapeError(what: string, path: string, problem: string): ExportFileError {
  return new ExportFileError(`${path}: ${problem} (this ${what} does not have the expected shape)`);
}

export function asObject(value: unknown, what: string, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw shapeError(what, path, 'expected an object');
  return value as Record<string, unknown>;
}

/** An array; null or missing counts as empty. */
export function asArray(value: unknown, what: string, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw shapeError(what, path, 'expected a list');
  return value;
}

/** A text value: null or missing → undefined, a number or boolean as text, anything else is a shape error. */
export function asText(value: unknown, what: string, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw shapeError(what, path, 'expected a text value');
}
