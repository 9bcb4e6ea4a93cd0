import type { ProviderMedia } from '../../video-provider.js';
import { parallax } from './camera.js';
import { filter } from './filter-syntax.js';
import { ffColor, type Rgb } from './palette.js';
import type { Frame, Graph } from './scene-layers.js';

// Layers that make a title card move like a camera shot, and the audio roles' drawings: soft light discs in the
// palette's colours moved by the camera move at two depths (parallax), bars that follow music, a logo in a corner.

const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));

/**
 * One soft disc (a radial falloff, drawn once at 128 px with geq and scaled: cheap), as a looped RGBA stream of the
 * render's length.
 */
function disc(g: Graph, f: Frame, rgb: Rgb, size: number, opacity: number): string {
  const r = 64;
  return g.add(
    [],
    [
      filter('color', { c: ffColor(rgb), s: `${2 * r}x${2 * r}`, r: f.fps }),
      filter('trim', { end_frame: 1 }),
      filter('format', { pix_fmts: 'rgba' }),
      filter('geq', {
        r: 'r(X,Y)',
        g: 'g(X,Y)',
        b: 'b(X,Y)',
        a: `${Math.round(255 * opacity)}*pow(max(0,1-hypot(X-${r},Y-${r})/${r}),1.4)`,
      }),
      filter('scale', { w: even(size), h: even(size) }),
      // Converted once here, not by overlay on every frame (the render's pictures are yuv420p).
      filter('format', { pix_fmts: 'yuva420p' }),
      filter('loop', { loop: -1, size: 1, start: 0 }),
      filter('setpts', { expr: `N/${f.fps}/TB` }),
      filter('trim', { end_frame: f.frames }),
    ],
    'disc',
  );
}

/**
 * Two discs (the accent, large and far; the second background colour, smaller and near) placed off-centre and moved
 * by the camera move: a push in spreads them apart, a pan slides them across at different speeds.
 */
export function lightDiscs(g: Graph, f: Frame, base: string): string {
  const short = Math.min(f.width, f.height);
  const layers = [
    { rgb: f.palette.accent, size: short * 1.1, at: { x: 0.28, y: 0.3 }, depth: 0.5, opacity: 0.55 },
    {
      rgb: f.palette.light ? f.palette.background[1] : f.palette.accent,
      size: short * 0.6,
      at: { x: 0.76, y: 0.72 },
      depth: 1,
      opacity: 0.35,
    },
  ];
  let out = base;
  for (const layer of layers) {
    const src = disc(g, f, layer.rgb, layer.size, layer.opacity);
    const { dx, dy } = parallax(f.camera, layer.depth, f.seconds, short, {
      x: (layer.at.x - 0.5) * 2,
      y: (layer.at.y - 0.5) * 2,
    });
    out = g.add(
      [out, src],
      [
        filter('overlay', {
          x: `${(f.width * layer.at.x).toFixed(1)}-w/2+${dx}`,
          y: `${(f.height * layer.at.y).toFixed(1)}-h/2+${dy}`,
          shortest: 1,
        }),
      ],
      'lit',
    );
  }
  return out;
}

/**
 * Bars that follow the music (showfreqs: a log-frequency spectrum drawn as bars in the accent colour), across the
 * lower middle of the frame; drawn at half size and scaled up.
 */
export function musicBars(g: Graph, f: Frame, base: string, audio: string): string {
  const portrait = f.height > f.width;
  const w = even(f.width * 0.84);
  const h = even(f.height * (portrait ? 0.22 : 0.34));
  const bars = g.add(
    [audio],
    [
      filter('showfreqs', {
        s: `${even(w / 6)}x${even(h / 2)}`,
        rate: f.fps,
        mode: 'bar',
        ascale: 'cbrt',
        fscale: 'log',
        win_size: 1024,
        // One colour per channel: the sound is stereo (a second channel would take showfreqs' next default colour).
        colors: `${ffColor(f.palette.accent)}|${ffColor(f.palette.accent)}`,
      }),
      filter('format', { pix_fmts: 'rgba' }),
      filter('colorkey', { color: 'black', similarity: 0.1 }),
      filter('scale', { w, h, flags: 'neighbor' }),
      filter('format', { pix_fmts: 'yuva420p' }),
    ],
    'bars',
  );
  const y = Math.round(f.height * (portrait ? 0.62 : 0.5) - h / 2);
  return g.add([base, bars], [filter('overlay', { x: '(main_w-overlay_w)/2', y, shortest: 1 })], 'comp');
}

/** A logo in the top-right corner of the safe area, at most a sixth of the short side, fading in. */
export function logoOverlay(g: Graph, f: Frame, base: string, media: ProviderMedia): string {
  const side = even(Math.min(f.width, f.height) / 6);
  const margin = Math.round(Math.min(f.width, f.height) * 0.05);
  const logo = g.add(
    [`${g.input(media)}:v`],
    [
      filter('trim', { end_frame: 1 }),
      filter('scale', { w: side, h: side, force_original_aspect_ratio: 'decrease', force_divisible_by: 2 }),
      filter('format', { pix_fmts: 'rgba' }),
      filter('loop', { loop: -1, size: 1, start: 0 }),
      filter('setpts', { expr: `N/${f.fps}/TB` }),
      filter('trim', { end_frame: f.frames }),
      filter('fade', { t: 'in', st: 0.3, d: 0.6, alpha: 1 }),
    ],
    'logo',
  );
  const top = Math.round(f.height * (f.height / f.width >= 1.6 ? 0.12 : 0.05));
  return g.add([base, logo], [filter('overlay', { x: `main_w-overlay_w-${margin}`, y: top })], 'comp');
}
