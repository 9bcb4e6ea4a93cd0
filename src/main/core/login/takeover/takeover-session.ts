import crypto from 'node:crypto';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { randomBase62 } from '../../ids.js';
import type { LogSink } from '../../logger.js';
import { clampViewport } from './live-page/takeover-protocol.js';
import { isPersonReason, PERSON_TASK } from '../../../../shared/person-task.js';

/** What a viewer of the live page receives (server-sent events; the protocol of live-page/). */
export type TakeoverEvent =
  | { event: 'hello'; data: { viewer: string; controller: boolean } }
  | { event: 'state'; data: TakeoverState }
  | { event: 'frame'; data: { data: string; width: number; height: number } }
  | { event: 'end'; data: { outcome: TakeoverOutcome; message: string } };

export type TakeoverOutcome = 'signed_in' | 'done' | 'cancelled' | 'timed_out' | 'closed' | 'failed';

export interface TakeoverState {
  reason: string;
  instructions: string;
  site: string;
  pageUrl: string;
  deadline: number;
  viewers: number;
  controller: string;
}

/** One input of the person, as the live page posts it (coordinates in CSS px of the remote viewport). */
export type TakeoverInput =
  | {
      type: 'mouse';
      action: 'move' | 'down' | 'up';
      x: number;
      y: number;
      button: 'none' | 'left' | 'middle' | 'right';
      clickCount?: number;
    }
  | { type: 'wheel'; x: number; y: number; deltaX: number; deltaY: number }
  | { type: 'key'; action: 'down' | 'up'; key: string }
  | { type: 'text'; text: string };

interface Viewer {
  id: string;
  send(e: TakeoverEvent): void;
  close(): void;
}

/** Keys Playwright's keyboard knows beyond single characters (the page sends KeyboardEvent.key values). */
const NAMED_KEYS = new Set(
  (
    'Enter Tab Backspace Delete Escape Home End PageUp PageDown ArrowLeft ArrowRight ArrowUp ArrowDown Insert ' +
    'Shift Control Alt Meta CapsLock F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12'
  ).split(' '),
);

const SCREENCAST = { format: 'jpeg', maxWidth: 1920, maxHeight: 1200 } as const;

/** Inputs a viewer may have queued before its POSTs wait for their dispatch (back-pressure). */
const MAX_QUEUED_INPUTS = 64;
/** How often the frame rate is looked at to choose the JPEG quality. */
const QUALITY_WINDOW_MS = 2000;

/**
 * The screencast's JPEG quality for the frames of the last window: while the page changes fast (an animation, the
 * person typing) smaller frames keep the stream fluid on a busy machine and a slow link; once it settles, the
 * sharper picture comes back. Hysteresis keeps it from flapping (each change restarts the screencast).
 */
export function nextQuality(current: number, framesPerSec: number): number {
  if (framesPerSec >= 15) return 50;
  if (framesPerSec <= 4) return 80;
  return current;
}

/** The page's instructions: the same task the desktop banner and notification name. */
const instructions = (reason: string): string => {
  const task = isPersonReason(reason) ? PERSON_TASK[reason] : 'finish signing in on this page';
  return `${task[0]!.toUpperCase()}${task.slice(1)}.`;
};

/**
 * The live view of one stopped login: its page streamed to the person's browser (Chrome DevTools screencast
 * frames) and their mouse, wheel, keys and text sent into it with Playwright's own input (the same events
 * a person's browser makes). The first viewer controls; others watch until the controller leaves.
 */
export class TakeoverSession {
  /** The secret of the live page's URL (after the #, never sent to the server but as a header). */
  readonly token = crypto.randomBytes(24).toString('base64url');
  private readonly viewers = new Map<string, Viewer>();
  private controller: string | null = null;
  private lastFrame: TakeoverEvent | null = null;
  private ended: TakeoverEvent | null = null;
  private cdp: CDPSession | null = null;
  /** Inputs run one after another, in the order they came. */
  private inputChain: Promise<unknown> = Promise.resolve();
  /** Inputs queued and not yet dispatched. */
  private queued = 0;
  private quality = 80;
  private framesInWindow = 0;
  private qualityTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly loginId: string,
    readonly orgId: string,
    private readonly page: Page,
    private readonly ctx: BrowserContext,
    private readonly info: { reason: string; deadline: number },
    private readonly log: LogSink,
  ) {}

  /** Constant-time: how much of the token matches must not show in the answer time. */
  tokenMatches(given: string | undefined): boolean {
    if (!given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(this.token);
    return a.length === b.length && crypto.timingSafeEqual(a, b);
  }

  async start(): Promise<void> {
    this.cdp = await this.ctx.newCDPSession(this.page);
    this.cdp.on('Page.screencastFrame', (e) => {
      void this.cdp?.send('Page.screencastFrameAck', { sessionId: e.sessionId }).catch(() => {});
      this.framesInWindow++;
      const width = e.metadata.deviceWidth;
      const height = e.metadata.deviceHeight;
      this.lastFrame = { event: 'frame', data: { data: e.data, width, height } };
      for (const v of this.viewers.values()) v.send(this.lastFrame);
    });
    this.page.on('framenavigated', (frame) => {
      if (frame === this.page.mainFrame()) this.broadcastState();
    });
    await this.cdp.send('Page.startScreencast', this.screencast());
    this.qualityTimer = setInterval(() => void this.adaptQuality(), QUALITY_WINDOW_MS);
    this.qualityTimer.unref();
  }

  private screencast() {
    return { ...SCREENCAST, quality: this.quality };
  }

  private async adaptQuality(): Promise<void> {
    const fps = (this.framesInWindow * 1000) / QUALITY_WINDOW_MS;
    this.framesInWindow = 0;
    const next = nextQuality(this.quality, fps);
    if (next === this.quality || this.ended) return;
    this.quality = next;
    await this.cdp?.send('Page.startScreencast', this.screencast()).catch(() => {});
  }

  /** A new viewer: hello, the state, the last frame, then every frame and state change until the end. */
  attach(send: (e: TakeoverEvent) => void, close: () => void): () => void {
    const id = randomBase62(12);
    this.viewers.set(id, { id, send, close });
    this.controller ??= id;
    send({ event: 'hello', data: { viewer: id, controller: this.controller === id } });
    if (this.ended) {
      send(this.ended);
      close();
      return () => {};
    }
    this.broadcastState();
    if (this.lastFrame) send(this.lastFrame);
    return () => {
      this.viewers.delete(id);
      if (this.controller === id) this.controller = this.viewers.keys().next().value ?? null;
      this.broadcastState();
    };
  }

  isController(viewer: string | undefined): boolean {
    return !!viewer && viewer === this.controller;
  }

  /**
   * The person's input, in order; coordinates are CSS px of the viewport (clamped to it). Answered once queued, so
   * a fast typist's keys do not wait a round trip each (the order is the chain's); past MAX_QUEUED_INPUTS queued,
   * the answer waits for the dispatch, which slows the sender down.
   */
  input(i: TakeoverInput): Promise<void> {
    this.queued++;
    const run = this.inputChain.then(() => this.dispatch(i)).finally(() => this.queued--);
    this.inputChain = run.catch((err: Error) =>
      this.log.debug({ loginId: this.loginId, err: err.message.split('\n')[0] }, 'live input not dispatched'),
    );
    return this.queued > MAX_QUEUED_INPUTS ? run : Promise.resolve();
  }

  /** The remote viewport follows the person's window (CSS px, clamped). */
  async resize(width: number, height: number): Promise<void> {
    const { width: w, height: h } = clampViewport(width, height);
    const now = this.page.viewportSize();
    if (now?.width === w && now.height === h) return;
    await this.page.setViewportSize({ width: w, height: h });
    // Right after a resize Chromium may send a frame labelled with the new size whose image is the old one, and a
    // page that does not repaint sends no other: a restarted screencast starts with a frame of the page as it is.
    await this.cdp?.send('Page.stopScreencast').catch(() => {});
    await this.cdp?.send('Page.startScreencast', this.screencast()).catch(() => {});
  }

  /** Ends the live view for every viewer with the outcome, and stops the screencast. */
  async end(outcome: TakeoverOutcome, message: string): Promise<void> {
    if (this.ended) return;
    this.ended = { event: 'end', data: { outcome, message } };
    for (const v of this.viewers.values()) {
      v.send(this.ended);
      v.close();
    }
    this.viewers.clear();
    if (this.qualityTimer) clearInterval(this.qualityTimer);
    await this.cdp?.send('Page.stopScreencast').catch(() => {});
    await this.cdp?.detach().catch(() => {});
  }

  private async dispatch(i: TakeoverInput): Promise<void> {
    if (this.ended || this.page.isClosed()) return;
    const { mouse, keyboard } = this.page;
    const viewport = this.page.viewportSize() ?? { width: 1280, height: 800 };
    const at = (x: number, y: number) => ({
      x: Math.min(viewport.width, Math.max(0, x)),
      y: Math.min(viewport.height, Math.max(0, y)),
    });
    switch (i.type) {
      case 'mouse': {
        const p = at(i.x, i.y);
        await mouse.move(p.x, p.y);
        if (i.action === 'move' || i.button === 'none') return;
        const opts = { button: i.button, clickCount: i.clickCount ?? 1 };
        await (i.action === 'down' ? mouse.down(opts) : mouse.up(opts));
        return;
      }
      case 'wheel': {
        const p = at(i.x, i.y);
        await mouse.move(p.x, p.y);
        await mouse.wheel(i.deltaX, i.deltaY);
        return;
      }
      case 'key':
        // One character or a named key; anything else (dead keys, IME "Process") comes as text instead.
        if ([...i.key].length !== 1 && !NAMED_KEYS.has(i.key)) return;
        await (i.action === 'down' ? keyboard.down(i.key) : keyboard.up(i.key));
        return;
      case 'text':
        await keyboard.insertText(i.text);
        return;
    }
  }

  private broadcastState(): void {
    if (this.ended || !this.viewers.size) return;
    let site = '';
    let pageUrl = '';
    try {
      const u = new URL(this.page.url());
      site = u.origin;
      pageUrl = `${u.origin}${u.pathname}`;
    } catch {
      this.log.debug({ loginId: this.loginId }, 'live page shows no http page');
    }
    const state: TakeoverState = {
      reason: this.info.reason,
      instructions: instructions(this.info.reason),
      site,
      pageUrl,
      deadline: this.info.deadline,
      viewers: this.viewers.size,
      controller: this.controller ?? '',
    };
    for (const v of this.viewers.values()) v.send({ event: 'state', data: state });
  }
}
