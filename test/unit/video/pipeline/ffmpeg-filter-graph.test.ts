import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanCaptionText, wrapCaption } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/captions.js';
import {
  inputsMentioned,
  lastLines,
  progressMicros,
  sanitizeToolOutput,
} from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/ffmpeg-process.js';
import {
  buildRenderCommand,
  type RenderSpec,
} from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/filter-graph.js';
import { RENDER_FPS } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/scene-layers.js';
import { filter } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/filter-syntax.js';
import { lookFor, planScene } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/scene-plan.js';
import { ProviderError, type ProviderJob } from '../../../../src/main/core/video/pipeline/video-provider.js';
import { builtinTemplates, jobFromTemplate, type BuiltinVariable } from '../../../helpers/render-jobs.js';

// A port of libavutil's av_get_token (avstring.c): the tokenizer ffmpeg applies at both levels of a
// filtergraph. Reading our graphs back with it shows what ffmpeg will see.
function avGetToken(s: { buf: string; i: number }, term: string): string {
  const ws = ' \n\t\r';
  while (s.i < s.buf.length && ws.includes(s.buf[s.i]!)) s.i++;
  let out = '';
  let end = 0;
  while (s.i < s.buf.length && !term.includes(s.buf[s.i]!)) {
    const c = s.buf[s.i++]!;
    if (c === '\\' && s.i < s.buf.length) {
      out += s.buf[s.i++];
      end = out.length;
    } else if (c === "'") {
      while (s.i < s.buf.length && s.buf[s.i] !== "'") out += s.buf[s.i++];
      if (s.i < s.buf.length) {
        s.i++;
        end = out.length;
      }
    } else out += c;
  }
  let cut = out.length;
  while (cut > end && ws.includes(out[cut - 1]!)) cut--;
  return out.slice(0, cut);
}

interface ParsedFilter {
  name: string;
  options: Record<string, string>;
}

/** Splits a filtergraph into filters and options the way libavfilter's graph parser does. */
function parseGraph(graph: string): ParsedFilter[] {
  const s = { buf: graph, i: 0 };
  const filters: ParsedFilter[] = [];
  const skipLabels = () => {
    while (s.buf[s.i] === '[') s.i = s.buf.indexOf(']', s.i) + 1;
  };
  while (s.i < s.buf.length) {
    skipLabels();
    const name = avGetToken(s, '=,;[');
    let args = '';
    if (s.buf[s.i] === '=') {
      s.i++;
      args = avGetToken(s, '[],;');
    }
    const options: Record<string, string> = {};
    const o = { buf: args, i: 0 };
    while (o.i < o.buf.length) {
      const eq = o.buf.indexOf('=', o.i);
      const key = o.buf.slice(o.i, eq);
      o.i = eq + 1;
      options[key] = avGetToken(o, ':');
      if (o.buf[o.i] === ':') o.i++;
    }
    filters.push({ name, options });
    skipLabels();
    if (s.buf[s.i] === ',' || s.buf[s.i] === ';') s.i++;
  }
  return filters;
}

const PHOTO = { path: '/data/work/input-0-photo.png', contentType: 'image/png' };
const chooser = (v: BuiltinVariable) => {
  // People come from characters; a product photo or a background is an upload.
  const person = /presenter|character|speaker/.test(v.key);
  if (v.type === 'image') return person ? { ...PHOTO, characterId: `chr_${v.key}` } : PHOTO;
  if (v.type === 'video') return { path: '/data/work/input-1-source.mp4', contentType: 'video/mp4' };
  return { path: '/data/work/input-2-audio.mp3', contentType: 'audio/mpeg' };
};

const spec = (job: ProviderJob, over: Partial<RenderSpec> = {}): RenderSpec => ({
  job,
  videoHasAudio: new Map(job.media.filter((m) => m.kind === 'video').map((m) => [m.path, true])),
  fontsDir: '/opt/app/resources/fonts',
  workDir: '/data/work',
  outputPath: '/data/work/out.mp4',
  thumbnailPath: '/data/work/thumb.jpg',
  ...over,
});

const graphOf = (args: string[]) => args[args.indexOf('-filter_complex') + 1]!;
const template = (id: string) => builtinTemplates().find((t) => t.id === id)!;

describe('filter syntax', () => {
  it('escapes values so ffmpeg reads back exactly what was meant', () => {
    const nasty = "C:\\Users\\O'Brien\\a,b;c [x]: y \\ end ";
    const graph = `[0:v]${filter('drawtext', { fontfile: nasty, x: 'min(1,max(0,t))', fontsize: 12.5 })},${filter('null')}[out]`;
    const parsed = parseGraph(graph);
    expect(parsed.map((f) => f.name)).toEqual(['drawtext', 'null']);
    expect(parsed[0]!.options).toEqual({ fontfile: nasty, x: 'min(1,max(0,t))', fontsize: '12.5' });
  });
});

describe('render command for each built-in template', () => {
  const expected: Record<string, string> = {
    'text-to-video-cinematic': 'title-card',
    'text-to-video-pro-1080p': 'title-card',
    'image-to-video-animate': 'image-motion',
    'ingredients-product-spokesperson': 'ingredients',
    'ingredients-two-characters': 'ingredients',
    'video-to-video-restyle': 'video',
    'audio-music-visualizer': 'visualizer',
    // With the optional background: the speaker as a card over it (without: full-frame, see the integration test).
    'ingredients-talking-head': 'ingredients',
  };

  it.each(builtinTemplates().map((t) => [t.id, t] as const))('%s', (id, t) => {
    const job = jobFromTemplate(t, chooser);
    const cmd = buildRenderCommand(spec(job));
    expect(cmd.scene).toBe(expected[id]);
    expect(cmd.durationSec).toBe(t.duration_sec);
    const a = cmd.args;
    expect(a[a.indexOf('-t') + 1]).toBe(String(t.duration_sec));
    expect(a[a.indexOf('-c:v') + 1]).toBe('libx264');
    expect(a[a.indexOf('-c:a') + 1]).toBe('aac');
    expect(a).toContain('file:/data/work/out.mp4');
    expect(a).toContain('file:/data/work/thumb.jpg');
    // One input per media file, each restricted to local files with a named demuxer.
    const inputs = a.flatMap((x, i) => (x === '-i' ? [a[i + 1]] : []));
    expect(inputs.sort()).toEqual(job.media.map((m) => `file:${m.path}`).sort());
    expect(a.filter((x) => x === '-protocol_whitelist')).toHaveLength(job.media.length);

    const filters = parseGraph(graphOf(a));
    const names = filters.map((f) => f.name);
    // Every output has sound: a silent track when the template has no audio or video input.
    const hasSound = job.media.some((m) => m.kind !== 'image');
    expect(names.includes('anullsrc')).toBe(!hasSound);
    // Music gets bars that follow it; a voice (or music under pictures) a waveform.
    const plan = planScene(job);
    if (job.media.some((m) => m.kind === 'audio'))
      expect(names).toContain(plan.kind === 'visualizer' && plan.music ? 'showfreqs' : 'showwaves');
    if (id === 'ingredients-talking-head') {
      expect(planScene(job)).toMatchObject({ backdrop: { key: 'background' }, cards: [{ key: 'speaker' }] });
    }
    if (id === 'video-to-video-restyle') {
      expect(a.slice(0, a.indexOf('-i'))).toContain('-stream_loop');
      expect(names).toContain('concat');
    }
    // Size of every full-frame layer is the template's resolution.
    const [w, h] = t.resolution === '1080p' ? [1920, 1080] : [1280, 720];
    for (const f of filters.filter((x) => x.name === 'zoompan')) expect(f.options.s).toBe(`${w}x${h}`);

    // The text roles' words come from files in the work dir, never from the graph.
    const drawtexts = filters.filter((f) => f.name === 'drawtext');
    expect(drawtexts.length).toBe(cmd.textFiles.length);
    for (const [i, d] of drawtexts.entries()) {
      expect(d.options.textfile).toBe(cmd.textFiles[i]!.path);
      expect(path.dirname(d.options.textfile!)).toBe('/data/work');
      expect(d.options.expansion).toBe('none');
      expect(d.options.fontfile!.startsWith('/opt/app/resources/fonts/DejaVuSans')).toBe(true);
    }
    // On screen: the headline, subtitle and body roles, whole and in that order; never the prompt.
    const onScreen = cmd.textFiles.map((f) => f.text).join(' ');
    const { headline, subtitle, body } = plan.text;
    expect(onScreen).toBe([headline, subtitle, body].filter(Boolean).join(' '));
    if (job.prompt && job.prompt !== headline) expect(onScreen).not.toContain(job.prompt);
    expect(onScreen).not.toContain('…');
  });

  it('keeps hostile text out of the graph and shows it verbatim', () => {
    const prompt = "Hack'; [0:v]null[x]; drawtext=text=%{pts} :fontfile=/etc/passwd, \\ end";
    const base = jobFromTemplate(template('text-to-video-cinematic'), chooser);
    const job = { ...base, texts: { ...base.texts, scene: prompt } };
    const cmd = buildRenderCommand(spec(job));
    expect(cmd.args.join(' ')).not.toContain('Hack');
    expect(cmd.args.join(' ')).not.toContain('/etc/passwd');
    expect(cmd.textFiles.map((f) => f.text).join(' ')).toBe(prompt);
    const filters = parseGraph(graphOf(cmd.args));
    expect(filters.filter((f) => f.name === 'drawtext')).toHaveLength(cmd.textFiles.length);
  });

  it('mixes a video with sound and an audio input; a clip without sound gets silence', () => {
    const job = jobFromTemplate(template('video-to-video-restyle'), chooser, {
      media: [
        { key: 'a', kind: 'video', slot: 'source_video', contentType: 'video/mp4', path: '/w/a.mp4' },
        { key: 'b', kind: 'video', slot: 'reference_video', contentType: 'video/webm', path: '/w/b.webm' },
        { key: 'm', kind: 'audio', slot: 'audio', contentType: 'audio/wav', path: '/w/m.wav' },
      ],
    });
    const cmd = buildRenderCommand(spec(job, { videoHasAudio: new Map([['/w/a.mp4', true]]) }));
    const filters = parseGraph(graphOf(cmd.args));
    const trims = filters.filter((f) => f.name === 'trim' && f.options.end_frame);
    // 10 s at 24 fps in two equal parts.
    expect(trims.slice(0, 2).map((f) => f.options.end_frame)).toEqual(['120', '120']);
    expect(filters.find((f) => f.name === 'concat')!.options).toMatchObject({ n: '2', v: '1', a: '1' });
    expect(filters.filter((f) => f.name === 'anullsrc')).toHaveLength(1); // b's part
    expect(filters.find((f) => f.name === 'amix')!.options.inputs).toBe('2');
    expect(cmd.args).toContain('matroska');
  });
});

describe('scene plan', () => {
  const img = (key: string, slot?: 'start_frame' | 'end_frame' | 'ingredient', characterId?: string) => ({
    key,
    kind: 'image' as const,
    slot,
    contentType: 'image/png',
    path: `/w/${key}.png`,
    ...(characterId ? { characterId } : {}),
  });
  const job = (category: ProviderJob['category'], media: ProviderJob['media']): ProviderJob => ({
    ...jobFromTemplate(template('text-to-video-cinematic'), chooser),
    category,
    media,
  });

  it('puts ingredient cards over a backdrop image, never a character', () => {
    const p = planScene(
      job('ingredients-to-video', [img('speaker', 'ingredient', 'c1'), img('background', 'ingredient')]),
    );
    expect(p.kind).toBe('ingredients');
    expect(p.backdrop?.key).toBe('background');
    expect(p.cards.map((c) => c.key)).toEqual(['speaker']);
    const q = planScene(job('ingredients-to-video', [img('background', 'ingredient', 'c1')]));
    expect(q).toMatchObject({ kind: 'image-motion', backdrop: null });
  });

  it('crossfades from the start frame to the end frame', () => {
    const j = job('image-to-video', [img('end', 'end_frame'), img('start', 'start_frame')]);
    expect(planScene(j).frames.map((f) => f.key)).toEqual(['start', 'end']);
    const filters = parseGraph(graphOf(buildRenderCommand(spec(j)).args));
    const zooms = filters.filter((f) => f.name === 'zoompan').map((f) => Number(f.options.d));
    const fade = filters.find((f) => f.name === 'xfade')!.options;
    expect(zooms[0]! + zooms[1]! - Number(fade.duration) * RENDER_FPS).toBe(8 * RENDER_FPS);
    expect(Number(fade.offset)).toBeCloseTo((zooms[0]! - Number(fade.duration) * RENDER_FPS) / RENDER_FPS);
  });

  it('picks a colour look from the prompt', () => {
    expect(lookFor('as a film noir')).toContain('hue=s=0');
    expect(lookFor('hand-drawn watercolor animation')).toContain('saturation=0.75');
    expect(lookFor('something else')).toBe('eq=contrast=1.08:saturation=1.3');
  });
});

describe('captions', () => {
  it('wraps at word boundaries, splits long words and marks a cut', () => {
    expect(wrapCaption('one two three four five', 9, 5)).toEqual(['one two', 'three', 'four five']);
    expect(wrapCaption('abcdefghijkl', 5, 5)).toEqual(['abcde', 'fghij', 'kl']);
    const cut = wrapCaption('aa bb cc dd ee ff', 5, 2);
    expect(cut).toEqual(['aa bb', 'cc d…']);
    expect(wrapCaption('  ', 10, 3)).toEqual([]);
  });

  it('removes control and bidi-override characters', () => {
    expect(cleanCaptionText('a\u0000b\nc\u202ed\tx')).toBe('a b c d x');
  });
});

describe('job checks', () => {
  const job = jobFromTemplate(template('text-to-video-cinematic'), chooser);
  it.each([
    [{ durationSec: 0 }, /up to 600 s/],
    [{ durationSec: 601 }, /up to 600 s/],
    [{ width: 853 }, /cannot make a 853x720/],
    [{ height: 0 }, /cannot make a 1280x0/],
  ])('%o is refused', (over, message) => {
    expect(() => buildRenderCommand(spec({ ...job, ...over }))).toThrow(ProviderError);
    expect(() => buildRenderCommand(spec({ ...job, ...over }))).toThrow(message);
  });

  it('takes a fractional duration to the nearest frame', () => {
    const cmd = buildRenderCommand(spec({ ...job, durationSec: 2.51 }));
    expect(cmd.durationSec).toBeCloseTo(60 / RENDER_FPS);
  });
});

describe('ffmpeg output handling', () => {
  it('reads progress lines', () => {
    expect(progressMicros('out_time_us=1500000')).toBe(1_500_000);
    expect(progressMicros('out_time_us=N/A')).toBeNull();
    expect(progressMicros('frame=12')).toBeNull();
  });

  it('cuts paths and URL details out of error lines', () => {
    const work = '/var/tmp/agent studio/work-1';
    const stderr = [
      'noise',
      `[png_pipe @ 0x1] file:${work}/input-0-photo.png: Invalid data found when processing input`,
      'Error opening /home/alice/.config/app/secret-dir/fonts/x.ttf',
      'Failed to fetch https://bucket.example/obj?X-Amz-Signature=abc123 (403)',
      'C:\\Users\\alice\\AppData\\out.mp4: Permission denied',
      '',
    ].join('\n');
    const text = lastLines(stderr, [work]);
    expect(text).toContain('input-0-photo.png: Invalid data found');
    expect(text).toContain('Error opening x.ttf');
    expect(text).toContain('<url bucket.example>');
    expect(text).toContain('out.mp4: Permission denied');
    expect(text).not.toMatch(/alice|agent studio|X-Amz|abc123|noise/);
    expect(sanitizeToolOutput('ratio 1/24 and/or x')).toBe('ratio 1/24 and/or x');
    expect(lastLines('[png @ 0x55d0c0ffee00] chunk too big')).toBe('[png] chunk too big');
  });

  it('names the inputs an error is about', () => {
    const stderr = 'Error while decoding stream #1:0: Invalid data\nInput #1, mov: bad\nstream #7:0 x';
    expect(inputsMentioned(stderr, ['photo', 'source'])).toEqual(["'source'"]);
    expect(inputsMentioned('Conversion failed!', ['photo'])).toEqual([]);
  });
});
