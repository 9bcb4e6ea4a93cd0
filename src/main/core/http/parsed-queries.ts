/** Query strings kept per route: a client paging through a list uses a handful; a scan of many only churns. */
const KEPT_PER_ROUTE = 64;
/** Longer query strings are parsed every time (none of the API's list queries comes near). */
const MAX_KEPT_LENGTH = 256;

/**
 * The parsed query of one route, kept by its raw query string. Agents poll the same list again and again
 * (`GET /api/templates`, `GET /api/generations?status=…`), and the zod parse of a list query (coercions, defaults,
 * clamping) was the largest single cost of such an answer after the socket write (bench/results/history.md#performance-round-5-2026-11-27-late-night-the-same-machine).
 * A schema's parse is a pure function of the string, so the kept value is exactly what parsing again would give;
 * it is frozen, so no handler can change it for the next request. A query that fails validation is not kept: it
 * throws again every time, with the same 400.
 *
 * Only for routes authenticated by key: the query strings of signed URLs carry signatures, which are not kept.
 */
export class ParsedQueries<V> {
  private readonly kept = new Map<string, Readonly<V>>();

  constructor(private readonly parse: (query: unknown) => V) {}

  /** The parsed query of `url` (its raw query string is the key; `query` is Fastify's parse of the same string). */
  get(url: string, query: unknown): Readonly<V> {
    const at = url.indexOf('?');
    const raw = at < 0 ? '' : url.slice(at + 1);
    if (raw.length > MAX_KEPT_LENGTH) return this.parse(query);
    const kept = this.kept.get(raw);
    if (kept !== undefined) return kept;
    const parsed = Object.freeze(this.parse(query));
    if (this.kept.size >= KEPT_PER_ROUTE) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(raw, parsed);
    return parsed;
  }
}
