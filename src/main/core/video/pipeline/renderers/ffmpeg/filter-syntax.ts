// Builds ffmpeg filtergraph text with every value escaped, so paths (a Windows drive colon, a quote in a user
// name, a comma in a temp dir) and expressions never change the graph's structure. ffmpeg parses a filter
// twice: the graph parser splits filters on `[ ] , ;` (av_get_token: backslash escapes, single quotes), then
// the filter splits its options on `:` the same way. So each option value is escaped for the option level,
// and the whole option string again for the graph level. User text never goes through here at all: captions
// are read by drawtext from files (textfile=), with expansion=none.

export type FilterOptionValue = string | number | boolean;

/** Characters that av_get_token treats specially (plus whitespace, which it trims at a token's ends). */
const OPTION_LEVEL = /[\\':\s]/g;
const GRAPH_LEVEL = /[\\'[\],;\s]/g;

/** Escapes one option value for the filter's own option parser. */
export function escapeOptionValue(value: string): string {
  return value.replace(OPTION_LEVEL, '\\$&');
}

/** Escapes a filter's option string for the filtergraph parser. */
export function escapeGraphLevel(text: string): string {
  return text.replace(GRAPH_LEVEL, '\\$&');
}

function formatValue(value: FilterOptionValue): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`filter option value ${value} is not finite`);
    return Number.isInteger(value) ? String(value) : String(Math.round(value * 1e6) / 1e6);
  }
  return value;
}

/**
 * One filter with named options: `filter('scale', { w: 1280, h: 720 })` -> `scale=w=1280:h=720`.
 * Option names are ours (fixed identifiers); values are escaped at both levels.
 */
export function filter(name: string, options: Record<string, FilterOptionValue | undefined> = {}): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (!/^[a-z_][a-z0-9_]*$/.test(key)) throw new Error(`bad filter option name ${key}`);
    parts.push(`${key}=${escapeOptionValue(formatValue(value))}`);
  }
  return parts.length ? `${name}=${escapeGraphLevel(parts.join(':'))}` : name;
}

/** A labelled chain: `[in1][in2]f1,f2[out]`. Labels are ours (letters, digits, underscores, `0:v`). */
export function chain(inputs: string[], filters: string[], outputs: string | string[]): string {
  const outs = typeof outputs === 'string' ? [outputs] : outputs;
  for (const label of [...inputs, ...outs]) {
    if (!/^[A-Za-z0-9_:]+$/.test(label)) throw new Error(`bad filtergraph label ${label}`);
  }
  const wrap = (labels: string[]) => labels.map((l) => `[${l}]`).join('');
  return `${wrap(inputs)}${filters.join(',')}${wrap(outs)}`;
}
