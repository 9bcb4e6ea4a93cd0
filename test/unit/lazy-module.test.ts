import { describe, expect, it } from 'vitest';
import { lazyModule, lazyRequire } from '../../src/main/core/lazy-module.js';

describe('lazyModule', () => {
  it('loads at the first call, once, and shares the result', async () => {
    let loads = 0;
    const load = lazyModule(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    expect(load.loaded()).toBeUndefined();
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(load.loaded()).toBe(a);
    expect(loads).toBe(1);
  });

  it('passes a failed load on and tries again at the next call', async () => {
    let tries = 0;
    const load = lazyModule(async () => {
      if (++tries === 1) throw new Error('not yet');
      return { tries };
    });
    await expect(load()).rejects.toThrow('not yet');
    expect(load.loaded()).toBeUndefined();
    await expect(load()).resolves.toEqual({ tries: 2 });
  });

  it('lazyRequire gives the package and throws for one that is not installed', () => {
    expect(lazyRequire<{ parse: unknown }>('csv-parse/sync')().parse).toBeTypeOf('function');
    expect(lazyRequire('no-such-package-here')).toThrow(/Cannot find module/);
  });
});
