// The Idempotency-Key rule is one schema (IdempotencyKeySchema, src/shared/video-generations.schema.ts): the route
// table's header (so the OpenAPI document shows its pattern), the server's check and the MCP tools' argument all use
// it, and its pattern is written nowhere else in src/ (issue 41: it was two regexes and a bare z.string()).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenApiDocument } from '../../../src/main/core/http/openapi.js';
import { idempotencyKeyOf } from '../../../src/main/core/video/generations/generate-request.js';
import { IdempotencyKeySchema } from '../../../src/shared/video-generations.schema.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const pattern = (z.toJSONSchema(IdempotencyKeySchema) as { pattern: string }).pattern;
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } }) as unknown as FastifyRequest;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe('Idempotency-Key from one schema', () => {
  it('the OpenAPI document shows the pattern on both routes that take the header', () => {
    const doc = new OpenApiDocument().document({ version: 'test' }) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string; schema: { pattern?: string } }[] }>
      >;
    };
    for (const p of ['/api/templates/{id}/generate', '/api/generations']) {
      const header = doc.paths[p].post.parameters?.find((x) => x.in === 'header' && x.name === 'idempotency-key');
      expect(header?.schema.pattern, p).toBe(pattern);
    }
  });

  it('the server accepts and refuses exactly what the schema does', () => {
    for (const key of ['k', 'quote-key-1', '~'.repeat(255), '~'.repeat(256), 'a b', 'é', '\t']) {
      const ok = IdempotencyKeySchema.safeParse(key).success;
      if (ok) expect(idempotencyKeyOf(withKey(key)), key).toBe(key);
      else expect(() => idempotencyKeyOf(withKey(key)), key).toThrow('Idempotency-Key must be 1-255 visible ASCII');
    }
  });

  it('the rule is written nowhere else in src/', () => {
    const owner = path.join(REPO_ROOT, 'src/shared/video-generations.schema.ts');
    const others = sourceFiles(path.join(REPO_ROOT, 'src')).filter(
      (f) => f !== owner && fs.readFileSync(f, 'utf8').includes('\\x21-\\x7e'),
    );
    expect(others).toEqual([]);
  });
});
