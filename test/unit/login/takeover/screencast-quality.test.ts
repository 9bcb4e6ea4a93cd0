import { describe, expect, it } from 'vitest';
import { nextQuality } from '../../../../src/main/core/login/takeover/takeover-session.js';

describe('nextQuality (the live page’s JPEG quality by frame rate)', () => {
  it('drops to 50 while the page changes fast and comes back to 80 once it settles', () => {
    expect(nextQuality(80, 24)).toBe(50);
    expect(nextQuality(50, 15)).toBe(50);
    expect(nextQuality(50, 3)).toBe(80);
    expect(nextQuality(80, 0)).toBe(80);
  });

  it('keeps its choice in between (no flapping: each change restarts the screencast)', () => {
    expect(nextQuality(50, 10)).toBe(50);
    expect(nextQuality(80, 10)).toBe(80);
  });
});
