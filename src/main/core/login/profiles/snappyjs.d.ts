// snappyjs ships no types: the one function used (raw Snappy, not the framing format).
declare module 'snappyjs' {
  /** Uncompresses raw Snappy; a Buffer in gives a Buffer out. Throws on malformed input. */
  export function uncompress(compressed: Buffer, maxLength?: number): Buffer;
  const snappy: { uncompress: typeof uncompress };
  export default snappy;
}
