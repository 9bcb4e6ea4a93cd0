import { describe, expect, it } from 'vitest';
import {
  buttonOf,
  clampViewport,
  createSseParser,
  escapeStep,
  fitContain,
  fitReadable,
  keyMessage,
  mapToRemote,
  modifiersOf,
  nextClickCount,
  parseLiveLocation,
  queueInput,
  wheelDelta,
  type TakeoverInput,
} from '../../../../src/main/core/login/takeover/live-page/takeover-protocol.js';
import {
  countdownAnnouncement,
  formatCountdown,
  instructionsFor,
  outcomeText,
  viewerStateText,
} from '../../../../src/main/core/login/takeover/live-page/takeover-text.js';
import { TAKEOVER_JS } from '../../../../src/main/core/login/takeover/live-page/takeover.client.js.js';
import { TAKEOVER_CSS } from '../../../../src/main/core/login/takeover/live-page/takeover.css.js';
import {
  LIVE_CSS_PATH,
  LIVE_JS_PATH,
  livePageHtml,
} from '../../../../src/main/core/login/takeover/live-page/live-page.html.js';

/** The pure rules of the takeover page; the page script is built from these very functions. */
const mods = { altKey: false, ctrlKey: false, metaKey: false, shiftKey: false };

describe('mapping the pointer to the remote viewport', () => {
  const remote = { width: 1280, height: 800 };

  it('fits the frame into the area keeping its aspect ratio, centred', () => {
    expect(fitContain({ width: 1268, height: 700 }, remote)).toEqual({ left: 74, top: 0, width: 1120, height: 700 });
    expect(fitContain({ width: 788, height: 800 }, remote)).toEqual({ left: 0, top: 154, width: 788, height: 492 });
    expect(fitContain({ width: 0, height: 500 }, remote)).toEqual({ left: 0, top: 0, width: 0, height: 0 });
  });

  it('keeps the frame readable: fitted whole while that is at least 3/4 size, else to the width (scrolling)', () => {
    // Whole: the same box as fitContain.
    expect(fitReadable({ width: 1268, height: 700 }, remote)).toEqual(fitContain({ width: 1268, height: 700 }, remote));
    // A short stage (a 640x480 window) and a remote that stayed 1280x800: not 0.26 of its size, but 3/4, scrolled.
    expect(fitReadable({ width: 596, height: 207 }, remote)).toEqual({ left: 0, top: 0, width: 960, height: 600 });
    // Wide enough but short: the width's scale (above 3/4), scrolled down.
    expect(fitReadable({ width: 1100, height: 300 }, remote)).toEqual({ left: 0, top: 0, width: 1100, height: 687 });
    // Never above 1:1.
    expect(fitReadable({ width: 2000, height: 200 }, remote)).toEqual({ left: 360, top: 0, width: 1280, height: 800 });
    expect(fitReadable({ width: 0, height: 500 }, remote)).toEqual({ left: 0, top: 0, width: 0, height: 0 });
  });

  it('maps by the displayed box at two display sizes', () => {
    const big = { left: 80, top: 60, width: 1120, height: 700 }; // scale 0.875
    expect(mapToRemote(80 + 560, 60 + 350, big, remote)).toEqual({ x: 640, y: 400, inside: true });
    expect(mapToRemote(80 + 87.5, 60 + 175, big, remote)).toEqual({ x: 100, y: 200, inside: true });
    const small = { left: 6, top: 100, width: 640, height: 400 }; // scale 0.5
    expect(mapToRemote(6 + 500, 100 + 350, small, remote)).toEqual({ x: 1000, y: 700, inside: true });
  });

  it('does not depend on the device scale: a 2x JPEG shown in the same box maps the same', () => {
    // with deviceScaleFactor 2 the JPEG is 2560x1600 pixels, but the box (CSS px) is what the pointer is over
    const box = fitContain({ width: 1280, height: 800 }, remote);
    expect(box).toEqual({ left: 0, top: 0, width: 1280, height: 800 });
    expect(mapToRemote(333.3, 222.2, box, remote)).toEqual({ x: 333.3, y: 222.2, inside: true });
  });

  it('clamps positions outside the box to its edge and says so', () => {
    const box = { left: 10, top: 10, width: 640, height: 400 };
    expect(mapToRemote(0, 500, box, remote)).toEqual({ x: 0, y: 800, inside: false });
    expect(mapToRemote(650, 410, box, remote)).toEqual({ x: 1280, y: 800, inside: true });
  });

  it('clamps the requested viewport to 320..1920 x 240..1200', () => {
    expect(clampViewport(1268.6, 700.2)).toEqual({ width: 1269, height: 700 });
    expect(clampViewport(100, 50)).toEqual({ width: 320, height: 240 });
    expect(clampViewport(4000, 3000)).toEqual({ width: 1920, height: 1200 });
    expect(clampViewport(Number.NaN, 500)).toEqual({ width: 320, height: 500 });
  });
});

describe('keys, buttons and modifiers', () => {
  it('has the CDP modifier bits, and AltGr is not Ctrl+Alt', () => {
    expect(modifiersOf(mods)).toBe(0);
    expect(modifiersOf({ ...mods, altKey: true })).toBe(1);
    expect(modifiersOf({ ...mods, ctrlKey: true })).toBe(2);
    expect(modifiersOf({ ...mods, metaKey: true })).toBe(4);
    expect(modifiersOf({ ...mods, shiftKey: true })).toBe(8);
    expect(modifiersOf({ altKey: true, ctrlKey: true, metaKey: true, shiftKey: true })).toBe(15);
    expect(modifiersOf({ ...mods, altKey: true, ctrlKey: true, altGraph: true })).toBe(0);
  });

  it('sends text only on keydown of a printable key without Ctrl/Meta', () => {
    expect(keyMessage('a', 'KeyA', 'down', 0)).toEqual({
      type: 'key',
      action: 'down',
      key: 'a',
      code: 'KeyA',
      text: 'a',
      modifiers: 0,
    });
    expect(keyMessage('A', 'KeyA', 'down', 8).text).toBe('A');
    expect(keyMessage('€', 'KeyE', 'down', 0).text).toBe('€');
    expect(keyMessage('😀', '', 'down', 0).text).toBe('😀');
    expect(keyMessage('a', 'KeyA', 'down', 2).text).toBeUndefined();
    expect(keyMessage('a', 'KeyA', 'down', 4).text).toBeUndefined();
    expect(keyMessage('a', 'KeyA', 'up', 0).text).toBeUndefined();
    expect(keyMessage('Enter', 'Enter', 'down', 0)).toEqual({
      type: 'key',
      action: 'down',
      key: 'Enter',
      code: 'Enter',
      modifiers: 0,
    });
    expect(keyMessage('Backspace', 'Backspace', 'down', 0).text).toBeUndefined();
  });

  it('maps pointer buttons; touch and pen are the left button', () => {
    expect([0, 1, 2, 3].map((b) => buttonOf(b, 'mouse'))).toEqual(['left', 'middle', 'right', 'none']);
    expect(buttonOf(-1, 'touch')).toBe('left');
    expect(buttonOf(2, 'pen')).toBe('left');
  });

  it('counts double and triple clicks at the same place only', () => {
    const first = nextClickCount(null, 1000, 10, 10, 'left');
    expect(first).toBe(1);
    const second = nextClickCount({ time: 1000, x: 10, y: 10, button: 'left', count: 1 }, 1300, 12, 9, 'left');
    expect(second).toBe(2);
    expect(nextClickCount({ time: 1300, x: 12, y: 9, button: 'left', count: 2 }, 1500, 12, 9, 'left')).toBe(3);
    expect(nextClickCount({ time: 1000, x: 10, y: 10, button: 'left', count: 1 }, 1700, 10, 10, 'left')).toBe(1);
    expect(nextClickCount({ time: 1000, x: 10, y: 10, button: 'left', count: 1 }, 1100, 30, 10, 'left')).toBe(1);
    expect(nextClickCount({ time: 1000, x: 10, y: 10, button: 'left', count: 1 }, 1100, 10, 10, 'right')).toBe(1);
  });

  it('leaves the live view on Esc then Tab, or Shift+F6, and only then', () => {
    let s = escapeStep(false, 'Escape', false);
    expect(s).toEqual({ leave: false, armed: true });
    s = escapeStep(s.armed, 'Shift', true);
    expect(s).toEqual({ leave: false, armed: true });
    expect(escapeStep(s.armed, 'Tab', true)).toEqual({ leave: true, armed: false });
    expect(escapeStep(false, 'Tab', false)).toEqual({ leave: false, armed: false });
    expect(escapeStep(true, 'a', false)).toEqual({ leave: false, armed: false });
    expect(escapeStep(false, 'F6', true)).toEqual({ leave: true, armed: false });
    expect(escapeStep(false, 'F6', false)).toEqual({ leave: false, armed: false });
  });

  it('converts wheel deltas to CSS px', () => {
    expect(wheelDelta(0, 120, 0, 800)).toEqual({ deltaX: 0, deltaY: 120 });
    expect(wheelDelta(1, 3, 1, 800)).toEqual({ deltaX: 40, deltaY: 120 });
    expect(wheelDelta(0, -1, 2, 700)).toEqual({ deltaX: 0, deltaY: -700 });
  });
});

describe('the input queue', () => {
  const move = (x: number): TakeoverInput => ({
    type: 'mouse',
    action: 'move',
    x,
    y: 1,
    button: 'none',
    clickCount: 0,
    modifiers: 0,
  });
  const key = (k: string): TakeoverInput => keyMessage(k, `Key${k.toUpperCase()}`, 'down', 0);

  it('coalesces waiting moves (latest wins) and wheel turns, but never presses or keys', () => {
    const q: TakeoverInput[] = [];
    queueInput(q, move(1));
    queueInput(q, move(2));
    queueInput(q, { type: 'mouse', action: 'down', x: 2, y: 1, button: 'left', clickCount: 1, modifiers: 0 });
    queueInput(q, move(3));
    queueInput(q, move(4));
    queueInput(q, key('a'));
    queueInput(q, key('a'));
    queueInput(q, { type: 'wheel', x: 5, y: 5, deltaX: 0, deltaY: 100, modifiers: 0 });
    queueInput(q, { type: 'wheel', x: 6, y: 6, deltaX: 10, deltaY: 100, modifiers: 0 });
    queueInput(q, { type: 'wheel', x: 6, y: 6, deltaX: 0, deltaY: 100, modifiers: 2 });
    queueInput(q, { type: 'text', text: 'x' });
    expect(q).toEqual([
      move(2),
      { type: 'mouse', action: 'down', x: 2, y: 1, button: 'left', clickCount: 1, modifiers: 0 },
      move(4),
      key('a'),
      key('a'),
      { type: 'wheel', x: 6, y: 6, deltaX: 10, deltaY: 200, modifiers: 0 },
      { type: 'wheel', x: 6, y: 6, deltaX: 0, deltaY: 100, modifiers: 2 },
      { type: 'text', text: 'x' },
    ]);
  });
});

describe('SSE parsing', () => {
  const stream =
    ': hi\n\nevent: hello\ndata: {"viewer":"v1","controller":true}\n\n' +
    'event: frame\r\ndata: {"data":"/9j/4AAQ","width":1280,\r\ndata: "height":800}\r\n\r\n' +
    'data: plain\n\nevent: end\ndata\n\n';
  const expected = [
    { event: 'hello', data: '{"viewer":"v1","controller":true}' },
    { event: 'frame', data: '{"data":"/9j/4AAQ","width":1280,\n"height":800}' },
    { event: 'message', data: 'plain' },
    { event: 'end', data: '' },
  ];

  it('parses a whole stream', () => {
    expect(createSseParser().push(stream)).toEqual(expected);
  });

  it('gives the same events whatever the chunk boundaries (every split point, CRLF split too)', () => {
    for (let i = 0; i <= stream.length; i++) {
      for (const j of [i, Math.min(stream.length, i + 1), Math.min(stream.length, i + 7)]) {
        const p = createSseParser();
        const got = [...p.push(stream.slice(0, i)), ...p.push(stream.slice(i, j)), ...p.push(stream.slice(j))];
        expect(got, `split at ${i}/${j}`).toEqual(expected);
      }
    }
  });

  it('parses one character at a time, skips a BOM and keeps an unfinished event for later', () => {
    const p = createSseParser();
    const got = [...'\uFEFFevent: state\ndata: {}\n\nevent: frame\ndata: x'].flatMap((c) => p.push(c));
    expect(got).toEqual([{ event: 'state', data: '{}' }]);
    expect(p.push('\n\n')).toEqual([{ event: 'frame', data: 'x' }]);
  });
});

describe('the address', () => {
  it('reads the login id from the path and the token from the fragment', () => {
    expect(parseLiveLocation('/live/abc123', '#tok-EN')).toEqual({ loginId: 'abc123', token: 'tok-EN' });
    expect(parseLiveLocation('/live/a%20b/', '')).toEqual({ loginId: 'a b', token: '' });
    expect(parseLiveLocation('/live/abc/events', '#t').loginId).toBeNull();
    expect(parseLiveLocation('/other', '#t').loginId).toBeNull();
    expect(parseLiveLocation('/live/%E0%A4%A', '#t').loginId).toBeNull();
  });
});

describe('the words', () => {
  it('formats the countdown as mm:ss, rounding up', () => {
    expect(formatCountdown(300_000)).toBe('05:00');
    expect(formatCountdown(299_001)).toBe('05:00');
    expect(formatCountdown(59_000)).toBe('00:59');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5)).toBe('00:00');
  });

  it('announces once a minute and at 30 s, not every second', () => {
    const said: string[] = [];
    let prev: number | null = null;
    for (let left = 185_000; left >= -1000; left -= 1000) {
      const say = countdownAnnouncement(prev, left);
      if (say) said.push(`${left}:${say}`);
      prev = left;
    }
    expect(said).toEqual([
      '180000:3 minutes left.',
      '120000:2 minutes left.',
      '60000:1 minute left.',
      '30000:30 seconds left.',
    ]);
    expect(countdownAnnouncement(null, 60_000)).toBeNull();
    expect(countdownAnnouncement(50_000, 240_000)).toBeNull(); // the deadline moved out
  });

  it('says who controls the page and how many watch', () => {
    expect(viewerStateText(true, 1)).toBe('You control this page');
    expect(viewerStateText(true, 3)).toBe('You control this page · 2 watching');
    expect(viewerStateText(false, 2)).toBe('Watching — someone else controls it');
    expect(viewerStateText(false, 4)).toBe('Watching — someone else controls it · 3 watching');
  });

  it('says the outcome in plain words, and the instructions for each reason', () => {
    expect(outcomeText('signed_in', '')).toEqual({ title: 'Signed in.', detail: 'You can close this tab.' });
    expect(outcomeText('cancelled', '').title).toBe('Cancelled.');
    // the server's messages, without repeating the headline, always saying the tab can be closed
    expect(outcomeText('cancelled', 'Cancelled: the login was given up.')).toEqual({
      title: 'Cancelled.',
      detail: 'The login was given up. You can close this tab.',
    });
    expect(
      outcomeText('signed_in', 'Signed in. The session went back to the app that asked; you can close this tab.'),
    ).toEqual({ title: 'Signed in.', detail: 'The session went back to the app that asked; you can close this tab.' });
    expect(outcomeText('done', 'Done.')).toEqual({
      title: 'Done.',
      detail: 'The session went back to the app that asked. You can close this tab.',
    });
    expect(outcomeText('timed_out', '').title).toBe('Time is up.');
    expect(outcomeText('failed', 'The code was wrong.')).toEqual({
      title: 'The login failed.',
      detail: 'The code was wrong. You can close this tab.',
    });
    expect(instructionsFor('captcha_blocked', '')).toBe('Solve the CAPTCHA, then sign in.');
    expect(instructionsFor('mfa_required', '  ')).toBe('Enter the code, then continue.');
    expect(instructionsFor('mfa_required', 'Type the SMS code.')).toBe('Type the SMS code.');
  });
});

describe('the page and its script', () => {
  it('is valid JavaScript with every pure rule inlined, and no inline script or style in the HTML', () => {
    expect(() => new Function(TAKEOVER_JS)).not.toThrow();
    for (const name of ['mapToRemote', 'createSseParser', 'queueInput', 'keyMessage', 'formatCountdown']) {
      expect(TAKEOVER_JS).toContain(`${name}: (`);
    }
    const html = livePageHtml({ title: 'Sign in <to> "x"' });
    expect(html).toContain(`<script src="${LIVE_JS_PATH}" defer></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="${LIVE_CSS_PATH}">`);
    expect(html).toContain('<title>Sign in &lt;to&gt; &quot;x&quot;</title>');
    expect(html).not.toMatch(/<script>|<style|style="|\son[a-z]+=/i);
    expect(TAKEOVER_CSS).toContain('prefers-color-scheme: dark');
  });
});
