// Camera moves from the words people write ("slow push in", "pan left", "orbit"): a picture gets them as a Ken Burns
// move (zoompan), the text-only scene's shapes as parallax (each layer moved by its depth).

export type CameraMoveKind =
  'push-in' | 'pull-out' | 'pan-left' | 'pan-right' | 'tilt-up' | 'tilt-down' | 'orbit' | 'drift';

export interface CameraMove {
  kind: CameraMoveKind;
  /** 0.6 for slow/gentle words, 1.6 for fast ones, else 1. */
  speed: number;
}

const MOVES: { words: RegExp; kind: CameraMoveKind }[] = [
  { words: /orbit|arc shot|circl|360|around the|revolv/i, kind: 'orbit' },
  { words: /pull[\s-]*(out|back)|dolly[\s-]*out|zoom[\s-]*out|reveal|wide shot|widen/i, kind: 'pull-out' },
  { words: /push[\s-]*in|dolly[\s-]*in|zoom[\s-]*in|close[\s-]*up|closer|move in/i, kind: 'push-in' },
  { words: /pan[\s-]*left|truck[\s-]*left|track(ing)?[\s-]*left|\bleft\b/i, kind: 'pan-left' },
  { words: /pan[\s-]*right|truck[\s-]*right|track(ing)?[\s-]*right|tracking|\bpan\b|\bright\b/i, kind: 'pan-right' },
  { words: /tilt[\s-]*up|crane[\s-]*up|pedestal[\s-]*up|ris(e|ing)|upward/i, kind: 'tilt-up' },
  { words: /tilt[\s-]*down|crane[\s-]*down|pedestal[\s-]*down|descend|downward/i, kind: 'tilt-down' },
  { words: /parallax|drift|float|ambient|handheld|sway/i, kind: 'drift' },
];

/** The move the words ask for (the first kind named wins); none named: a slow push in, the usual opener. */
export function cameraMoveFor(text: string): CameraMove {
  const kind = MOVES.find((m) => m.words.test(text))?.kind ?? 'push-in';
  const speed = /\b(slow|slowly|gentle|gently|subtle|soft|calm)\b/i.test(text)
    ? 0.6
    : /\b(fast|quick|quickly|whip|rapid|snappy|energetic)\b/i.test(text)
      ? 1.6
      : 1;
  return { kind, speed };
}

/**
 * zoompan expressions for a picture (`on` = output frame, `last` = the last frame's number): zoom and the top-left
 * corner of the visible window. Amplitudes grow with speed and stay inside the picture (zoom >= 1.06 when panning).
 */
export function kenBurns(move: CameraMove, last: number): { z: string; x: string; y: string } {
  const p = `(on/${Math.max(1, last)})`;
  const amount = (0.14 * move.speed).toFixed(3);
  const centreX = 'iw/2-(iw/zoom/2)';
  const centreY = 'ih/2-(ih/zoom/2)';
  const pan = (1 + 0.12 * move.speed).toFixed(3);
  switch (move.kind) {
    case 'push-in':
      return { z: `1+${amount}*${p}`, x: centreX, y: centreY };
    case 'pull-out':
      return { z: `1+${amount}*(1-${p})`, x: centreX, y: centreY };
    case 'pan-left':
      return { z: pan, x: `(iw-iw/zoom)*(1-${p})`, y: centreY };
    case 'pan-right':
      return { z: pan, x: `(iw-iw/zoom)*${p}`, y: centreY };
    case 'tilt-up':
      return { z: pan, x: centreX, y: `(ih-ih/zoom)*(1-${p})` };
    case 'tilt-down':
      return { z: pan, x: centreX, y: `(ih-ih/zoom)*${p}` };
    case 'orbit':
      return {
        z: `${pan}+0.04*${p}`,
        x: `(iw-iw/zoom)*(0.5+0.5*cos(2*PI*${p}))`,
        y: `(ih-ih/zoom)*(0.5+0.5*sin(2*PI*${p}))`,
      };
    case 'drift':
      return { z: `1.06+0.05*${p}`, x: `(iw-iw/zoom)*(0.3+0.4*${p})`, y: `(ih-ih/zoom)*(0.6-0.3*${p})` };
  }
}

/**
 * How far a layer at `depth` (0 = far, 1 = near) moves by time `t` of `seconds`, as overlay expressions in pixels
 * of a `short`-pixel frame side: parallax, near layers moving more than far ones. A push in spreads layers out from
 * the centre (`fromCentreX/Y`: the layer's offset from the frame centre, -1..1).
 */
export function parallax(
  move: CameraMove,
  depth: number,
  seconds: number,
  short: number,
  fromCentre: { x: number; y: number } = { x: 0, y: 0 },
): { dx: string; dy: string } {
  const p = `(t/${seconds.toFixed(3)})`;
  const r = (short * 0.22 * depth * move.speed).toFixed(1);
  const spread = (k: number) => (short * 0.35 * depth * move.speed * k).toFixed(1);
  switch (move.kind) {
    case 'push-in':
      return { dx: `${spread(fromCentre.x)}*${p}`, dy: `${spread(fromCentre.y)}*${p}` };
    case 'pull-out':
      return { dx: `${spread(fromCentre.x)}*(1-${p})`, dy: `${spread(fromCentre.y)}*(1-${p})` };
    // The camera moving left makes the world move right across the frame.
    case 'pan-left':
      return { dx: `${r}*(${p}-0.5)*2`, dy: '0' };
    case 'pan-right':
      return { dx: `${r}*(0.5-${p})*2`, dy: '0' };
    case 'tilt-up':
      return { dx: '0', dy: `${r}*(${p}-0.5)*2` };
    case 'tilt-down':
      return { dx: '0', dy: `${r}*(0.5-${p})*2` };
    case 'orbit':
      return { dx: `${r}*cos(2*PI*${p})`, dy: `${r}*0.5*sin(2*PI*${p})` };
    case 'drift':
      return { dx: `${r}*0.6*sin(2*PI*${p})`, dy: `${r}*0.4*(${p}-0.5)` };
  }
}
