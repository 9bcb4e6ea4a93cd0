import { describe, expect, it } from 'vitest';
import { API_ROUTES, type ApiRoute } from '../../../src/shared/api/index.js';
import { TemplateListQuerySchema } from '../../../src/shared/video.schema.js';
import { AppError } from '../../../src/main/core/errors.js';
import { ParsedQueries } from '../../../src/main/core/http/parsed-queries.js';
import { keepsParsedQueries, parseRequestPart } from '../../../src/main/core/http/route.js';

/** The templates list's real schema, parsed as the route parses it, counting the parses. */
function templateQueries() {
  let parses = 0;
  const queries = new ParsedQueries((query) => {
    parses++;
    return parseRequestPart(TemplateListQuerySchema, query, 'query');
  });
  return { queries, parses: () => parses };
}

describe('ParsedQueries', () => {
  it('parses a query string once and answers the same frozen value for it again', () => {
    const { queries, parses } = templateQueries();
    const first = queries.get('/api/templates?limit=500', { limit: '500' });
    expect(first).toEqual({ limit: 100, offset: 0 }); // clamped by the schema's transform
    const again = queries.get('/api/templates?limit=500', { limit: '500' });
    expect(again).toBe(first);
    expect(parses()).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { limit: number }).limit = 7; // a handler changing its input would change the next request's
    }).toThrow(TypeError);
  });

  it('parses another query string anew, and no query string as its own key', () => {
    const { queries, parses } = templateQueries();
    expect(queries.get('/api/templates', {})).toEqual({ limit: 50, offset: 0 });
    expect(queries.get('/api/templates?limit=3&offset=6', { limit: '3', offset: '6' })).toEqual({
      limit: 3,
      offset: 6,
    });
    expect(queries.get('/api/templates?', {})).toBe(queries.get('/api/templates', {}));
    expect(parses()).toBe(2);
  });

  it('keeps no failed parse: an invalid query is a 400 every time', () => {
    const { queries, parses } = templateQueries();
    for (let i = 0; i < 3; i++) {
      let thrown: unknown;
      try {
        queries.get('/api/templates?limit=0', { limit: '0' });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).status).toBe(400);
      expect((thrown as AppError).message).toContain('limit must be at least 1');
    }
    expect(parses()).toBe(3);
  });

  it('keeps 64 query strings per route (the oldest goes first) and parses a long one every time', () => {
    const { queries, parses } = templateQueries();
    for (let i = 0; i <= 64; i++) queries.get(`/api/templates?offset=${i}`, { offset: String(i) });
    expect(parses()).toBe(65);
    queries.get('/api/templates?offset=64', { offset: '64' });
    expect(parses()).toBe(65);
    queries.get('/api/templates?offset=0', { offset: '0' }); // dropped when the 65th came
    expect(parses()).toBe(66);
    const long = `/api/templates?offset=1&${'x'.repeat(300)}=1`;
    queries.get(long, { offset: '1' });
    queries.get(long, { offset: '1' });
    expect(parses()).toBe(68);
  });
});

describe('which routes keep parsed queries', () => {
  it('the key-authenticated list routes do; signed URLs, whose queries carry signatures, do not', () => {
    const routes = (Object.values(API_ROUTES) as ApiRoute[]).filter((r) => r.query);
    const signed = routes.filter((r) => 'sig' in ((r.query as { shape?: object }).shape ?? {}));
    expect(signed.length).toBeGreaterThan(0);
    for (const r of signed) expect(keepsParsedQueries(r), r.path).toBe(false);
    expect(keepsParsedQueries(API_ROUTES.listTemplates)).toBe(true);
    expect(keepsParsedQueries(API_ROUTES.listGenerations)).toBe(true);
    expect(keepsParsedQueries(API_ROUTES.health)).toBe(false); // no key: its challenge is new every time
  });
});
