// The desktop's video-studio calls take their shapes from the route table (issue 41: studio-api.ts wrote the quote
// and generate shapes by hand, its Quote lacking draft and renderer, and called through `as unknown as`). Checked by
// the typecheck (tsconfig.json includes test/): a field added to a schema reaches the renderer's types by itself.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { GenerateAnswer, GenerateBody, Quote } from '../../../src/renderer/lib/studio-api.js';
import type {
  GenerateRequestSchema,
  GenerateResponseSchema,
  QuoteSchema,
} from '../../../src/shared/video-generations.schema.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

describe('studio-api types from the route table', () => {
  it('Quote, GenerateBody and GenerateAnswer are the schemas’ types, every field included', () => {
    expectTypeOf<Quote>().toEqualTypeOf<z.output<typeof QuoteSchema>>();
    expectTypeOf<Quote>().toHaveProperty('draft');
    expectTypeOf<Quote>().toHaveProperty('renderer');
    expectTypeOf<GenerateBody>().toEqualTypeOf<z.input<typeof GenerateRequestSchema>>();
    expectTypeOf<GenerateAnswer>().toEqualTypeOf<z.output<typeof GenerateResponseSchema>>();
  });

  it('calls through the typed invoke, never a loosened one', () => {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'src/renderer/lib/studio-api.ts'), 'utf8');
    expect(text).not.toMatch(/as unknown as|\binterface\b/);
  });
});
