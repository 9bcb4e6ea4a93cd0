// Seeded random input for the fuzz tests, so a failing case can be found again.

/** mulberry32: a small seeded PRNG, so a failing case can be found again. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const ALPHABET = 'abcXYZ019-_.~%/?#&=+ ;:@!$\'"()[]{}<>\\^`|\t\r\n\0é中😀';
  const chars = (max: number) => Array.from({ length: int(max) + 1 }, () => pick([...ALPHABET])).join('');
  const json = (depth = 0): unknown => {
    switch (int(depth > 3 ? 5 : 7)) {
      case 0:
        return null;
      case 1:
        return pick([true, false]);
      case 2:
        return pick([0, -1, 1e308, -0.5, 2 ** 53 + 1]);
      case 3:
        return chars(40);
      case 4:
        return pick(['', 'x'.repeat(5000), '__proto__', 'constructor']);
      case 5:
        return Array.from({ length: int(4) }, () => json(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: int(4) }, () => [chars(8), json(depth + 1)]));
    }
  };
  return { int, pick, chars, json };
}

export type Prng = ReturnType<typeof prng>;
