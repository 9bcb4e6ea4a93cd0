import { describe, expect, it } from 'vitest';
import { priceFor, PRICING_TABLE } from '../../../../src/main/core/video/pricing.js';
import { readJsonResources, resolveResourcesDir } from '../../../../src/main/core/video/resources.js';
import { promptTokens } from '../../../../src/shared/template-rules.js';
import { renderPrompt, validateTemplate } from '../../../../src/main/core/video/templates/template-validation.js';

const base = {
  title: 'T',
  category: 'text-to-video',
  input_variables: [{ key: 'topic', label: 'Topic', type: 'text' }],
  prompt_template: 'About {{topic}}',
};
const reasons = (t: unknown) => {
  const r = validateTemplate(t);
  return r.ok ? [] : r.reasons;
};

describe('template validation', () => {
  it('accepts a minimal template and fills the defaults', () => {
    const r = validateTemplate(base);
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.value).toMatchObject({
        model: 'studio-v1',
        resolution: '720p',
        description: null,
        duration_sec: null,
        latency_estimate_sec: null,
      });
  });

  it('reports every problem', () => {
    const problems = reasons({
      ...base,
      category: 'video-to-video',
      latency_estimate_sec: { typical: 100, busy: 10 },
      input_variables: [
        { key: 'topic', label: 'Topic', type: 'text', min_length: 5, max_length: 2, default_value: 'x', slot: 'audio' },
        { key: 'pic', label: 'Pic', type: 'image', max_length: 3, default_value: 'data:image/png;base64,AAAA' },
        { key: 'a1', label: 'A', type: 'audio', slot: 'audio' },
        { key: 'a2', label: 'A', type: 'audio', slot: 'audio' },
      ],
      prompt_template: '{{topic}} {{pic}} {{ghost}} {{}}',
    });
    const text = problems.join('\n');
    for (const expected of [
      'min_length (5) is greater than max_length (2)',
      'default_value is shorter than min_length',
      'slot applies to image, video and audio variables only',
      'min_length/max_length apply to text variables only',
      'must be an http(s) URL or a storage key',
      'slot "audio" is used by 2 variables',
      '{{pic}} names a image variable',
      '{{ghost}} has no input variable',
      'malformed token "{{}}"',
      'needs at least one video variable',
      'busy must be at least',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('reports type errors from the schema', () => {
    expect(reasons({ ...base, category: 'cartoon' })[0]).toMatch(/^category/);
    expect(reasons({ ...base, input_variables: [{ key: '1bad', label: 'x', type: 'text' }] })[0]).toMatch(
      /input_variables\.0\.key/,
    );
    expect(reasons({ ...base, input_variables: 'nope' })[0]).toMatch(/input_variables/);
    expect(reasons({ ...base, duration_sec: -1 })[0]).toMatch(/duration_sec/);
    expect(
      reasons({ ...base, input_variables: [{ key: 'topic', label: 'x', type: 'text', required: 'yes' }] })[0],
    ).toMatch(/required/);
    expect(
      reasons({
        ...base,
        category: 'text-to-video',
        input_variables: [...base.input_variables, { key: 'p', label: 'P', type: 'image' }],
      })[0],
    ).toMatch(/takes no image or video/);
  });

  it('tokens and prompt rendering', () => {
    expect(promptTokens('{{a}} and {{ b }} and {{a}}')).toEqual(['a', 'b']);
    expect(renderPrompt('Hi {{ name }}, {{missing}}!', { name: 'Bo' })).toBe('Hi Bo, !');
    expect(renderPrompt(null, {})).toBeNull();
  });

  it('every shipped built-in template is valid and priced', () => {
    const files = readJsonResources(resolveResourcesDir(), 'templates');
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const { file, value, error } of files) {
      expect(error, file).toBeUndefined();
      const { id, ...definition } = value as Record<string, unknown>;
      expect(id, file).toMatch(/^[a-z0-9-]+$/);
      const r = validateTemplate(definition);
      expect(r.ok ? [] : r.reasons, file).toEqual([]);
      if (r.ok) expect(priceFor(r.value).credits_per_video, file).toBeGreaterThan(0);
    }
  });
});

describe('pricing', () => {
  it('charges ceil(duration x rate), at least 1, or throws pricing_error', () => {
    expect(priceFor({ model: 'studio-v1', resolution: '720p', duration_sec: 8 }).credits_per_video).toBe(8);
    expect(priceFor({ model: 'studio-v1-fast', resolution: '720p', duration_sec: 5 }).credits_per_video).toBe(3);
    expect(priceFor({ model: 'studio-v1-fast', resolution: '480p', duration_sec: 1 }).credits_per_video).toBe(1);
    expect(priceFor({ model: 'studio-v1', resolution: '720p', duration_sec: null })).toMatchObject({
      duration_sec: 8,
      credits_per_video: 8,
    });
    for (const bad of [
      { model: 'nope', resolution: '720p', duration_sec: 8 },
      { model: 'studio-v1', resolution: '8k', duration_sec: 8 },
      { model: 'studio-v1', resolution: '720p', duration_sec: 61 },
      { model: 'toString', resolution: '720p', duration_sec: 8 },
    ]) {
      expect(() => priceFor(bad)).toThrow(expect.objectContaining({ status: 400, code: 'pricing_error' }));
    }
    expect(Object.keys(PRICING_TABLE)).toContain('studio-pro');
  });
});
