import type { Frame, Locator, Page } from 'playwright-core';
import type { DomHelpers } from './dom-helpers.js';
import type { Deadline } from './deadline.js';
import { clickAt, typeInto } from './direct-input.js';
import { matchAdditionalFields, parseCheckboxValue } from './field-matcher.js';
import { markedLocator } from './form-finder.js';
import type { FormCandidate, ScannedField } from './form-scan.js';
import { MARK_ATTR, nextScanId, runInFrame } from './page-script.js';
import { LoginFlowError, originMismatchMessage } from '../login-types.js';
import type { EgressGuard } from './egress-guard.js';
import { originOf } from './secret-egress.js';

/** A frame's document origin, read in the page (after every redirect; about:blank and srcdoc frames inherit theirs). */
async function originIn(frame: Frame): Promise<string> {
  return frame.evaluate(() => window.location.origin).catch(() => originOf(frame.url()));
}

/** The message of a login stopped because the page moved the focus off a field while a secret was typed into it. */
const FOCUS_MOVED_MESSAGE =
  'The page moved the keyboard focus away from the field while the credentials were typed into it; the login ' +
  'stopped so that nothing more was typed.';

/** In-page: finds a visible "Accept" button of a cookie/consent banner and marks it. */
export function findConsentButton(_args: Record<string, never>, h: DomHelpers): string | null {
  for (const el of h.allElements()) {
    if (!el.matches(h.CLICKABLE) || !h.isVisible(el)) continue;
    if (!h.re.consentAccept.test(h.clickableText(el))) continue;
    let n: Element | null = el;
    for (let i = 0; i < 10 && n; i++, n = h.parentOf(n)) {
      if (
        h.re.consentContainer.test(`${n.id} ${typeof n.className === 'string' ? n.className : ''} ${h.textOf(n, 600)}`)
      )
        return h.mark(el);
    }
  }
  return null;
}

export interface FillerDeps {
  page: Page;
  deadline: Deadline;
  step: (s: string) => void;
  /** Where text may be typed (a saved login's origins, EngineLoginRequest.secretOrigins); absent: anywhere. */
  typingOrigins?: readonly string[];
  /** Told of every origin typed on (an inline login's secrets may then be sent there). */
  egress?: EgressGuard;
}

/** Fills fields and presses buttons the way a user would; reports what it did in the step trace. */
export class FormFiller {
  /** Text fields filled since the last verifyFills(), checked together in one round trip. */
  private unverified: { frame: Frame; id: string; value: string }[] = [];
  /** The origins text was typed on. */
  readonly typedOrigins = new Set<string>();

  constructor(private readonly deps: FillerDeps) {}

  async fillText(frame: Frame, id: string, value: string): Promise<void> {
    await this.type(frame, id, value, false);
    this.unverified.push({ frame, id, value });
  }

  /** Types into a marked field once the frame may take it; stops the login when the focus was moved off it. */
  private async type(frame: Frame, id: string, value: string, keyByKey: boolean): Promise<void> {
    const origin = await this.checkOrigin(frame);
    this.typedOrigins.add(origin);
    this.deps.egress?.typedOn(origin);
    const typed = await typeInto(frame, id, value, keyByKey);
    if (typed === 'elsewhere') {
      this.deps.step('stopped typing: the page moved the focus off the field');
      throw new LoginFlowError('credential_origin_mismatch', FOCUS_MOVED_MESSAGE);
    }
    // Not a text input or textarea (an editable element of a widget): Playwright's fill handles it.
    if (typed === 'unfit') await markedLocator(frame, id).fill(value, { timeout: this.deps.deadline.cap(5000) });
  }

  /**
   * The frame's document origin and those of every frame around it up to the top-level page, read in the
   * page right before typing (after every redirect, in an iframe or a popup alike): when any of them is
   * outside typingOrigins the login stops before the value leaves the process — a login page framed by a
   * page of another origin is typed into by no one.
   */
  private async checkOrigin(frame: Frame): Promise<string> {
    const allowed = this.deps.typingOrigins;
    const origin = await originIn(frame);
    if (!allowed) return origin;
    for (let f: Frame | null = frame; f; f = f.parentFrame()) {
      const o = f === frame ? origin : await originIn(f);
      if (allowed.includes(o)) continue;
      this.deps.step(
        f === frame
          ? `did not type on ${o}: not one of the saved login's origins`
          : `did not type on ${origin}: it is framed by a page on ${o}, not one of the saved login's origins`,
      );
      throw new LoginFlowError('credential_origin_mismatch', originMismatchMessage(o, allowed));
    }
    return origin;
  }

  /** Forgets fills of an attempt that failed (the form is scanned and filled again). */
  discardFills(): void {
    this.unverified = [];
  }

  /**
   * Some widgets (masks, custom inputs) drop or reformat programmatic fills: checks every field
   * filled so far (one evaluate per frame, after all fills, so late reformatting is seen too) and
   * types the value key by key where it did not stick.
   */
  async verifyFills(): Promise<void> {
    const { deadline } = this.deps;
    const pending = this.unverified.splice(0);
    for (const frame of new Set(pending.map((p) => p.frame))) {
      const mine = pending.filter((p) => p.frame === frame);
      const ok = await frame
        .evaluate(
          ([attr, entries]) =>
            // No named function in here (page-functions-tsx.test.ts): shadow roots searched by a loop.
            entries.map(([id, v]) => {
              const roots: (Document | ShadowRoot)[] = [document];
              let el: HTMLInputElement | null = null;
              for (let i = 0; i < roots.length && !el; i++) {
                el = roots[i]!.querySelector(`[${attr}="${id}"]`);
                for (const host of Array.from(roots[i]!.querySelectorAll('*')))
                  if (host.shadowRoot) roots.push(host.shadowRoot);
              }
              // A field that went away (re-render) is not ours to judge here: count it as filled. Other
              // fields than passwords may be normalized when they lose focus (trimmed, lower-cased).
              return (
                !el ||
                el.value === v ||
                (el.type !== 'password' && el.value.trim().toLowerCase() === v.trim().toLowerCase())
              );
            }),
          [MARK_ATTR, mine.map((p) => [p.id, p.value] as [string, string])] as const,
        )
        .catch(() => mine.map(() => true));
      for (const [i, p] of mine.entries()) {
        if (ok[i]) continue;
        deadline.check();
        await this.type(frame, p.id, p.value, true);
      }
    }
  }

  /**
   * Clicks without waiting for a navigation the click starts (`noWaitAfter`): a slow login POST
   * must not look like a failed click; the outcome detector watches navigation itself.
   * If something covers the element (cookie banner, overlay), dismisses consent and retries. */
  async click(loc: Locator): Promise<void> {
    const { deadline } = this.deps;
    try {
      // Short first try: a covered element (cookie banner) would otherwise burn the whole timeout.
      await loc.click({ timeout: deadline.cap(1500), noWaitAfter: true });
      return;
    } catch (err) {
      deadline.check();
      await this.dismissConsent();
      try {
        await loc.click({ timeout: deadline.cap(5000), noWaitAfter: true });
        return;
      } catch {
        deadline.check();
      }
      try {
        await loc.click({ force: true, timeout: deadline.cap(3000), noWaitAfter: true });
      } catch {
        await loc.dispatchEvent('click', undefined, { timeout: deadline.cap(3000) }).catch(() => {
          throw err;
        });
      }
    }
  }

  /**
   * Clicks an element a scan marked: the quick way when it is plainly clickable, else as click() does. With
   * `untilEnabled`, a control the quick look found disabled is first waited for (untilEnabled).
   */
  async clickMarked(frame: Frame, id: string, opts: { untilEnabled?: boolean } = {}): Promise<void> {
    let quick = await clickAt(this.deps.page, frame, id);
    if (quick === 'disabled' && opts.untilEnabled) {
      await this.untilEnabled(frame, id);
      quick = await clickAt(this.deps.page, frame, id);
    }
    if (quick === 'clicked') return;
    this.deps.deadline.check();
    await this.click(markedLocator(frame, id));
  }

  async dismissConsent(): Promise<boolean> {
    const { page, deadline } = this.deps;
    const scanId = nextScanId();
    for (const frame of page.frames()) {
      const id = await runInFrame(frame, findConsentButton, {}, scanId);
      if (!id) continue;
      try {
        await markedLocator(frame, id).click({ timeout: deadline.cap(3000), noWaitAfter: true });
        this.deps.step('dismissed a cookie/consent banner');
        return true;
      } catch {
        return false;
      }
    }
    return false;
  }

  /**
   * Fills additional fields whose key matches a field on this step. Returns the keys filled.
   * `reserved` are marker ids (username/password) that must not be used.
   */
  async fillAdditional(
    frame: Frame,
    fields: ScannedField[],
    extras: Record<string, string>,
    pendingKeys: string[],
    reserved: Set<string>,
  ): Promise<string[]> {
    const usable = fields.filter(
      (f) => !reserved.has(f.id) && (f.editable || f.kind === 'checkbox' || f.kind === 'radio' || f.kind === 'select'),
    );
    const done: string[] = [];
    for (const { key, field } of matchAdditionalFields(pendingKeys, usable)) {
      const value = extras[key];
      const loc = markedLocator(frame, field.id);
      try {
        if (field.kind === 'checkbox') {
          const want =
            parseCheckboxValue(value) ??
            (field.optionValue === undefined || field.optionValue.toLowerCase() === value.toLowerCase());
          await this.setChecked(loc, want);
        } else if (field.kind === 'radio') {
          const group = usable.filter((f) => f.kind === 'radio' && f.name === field.name);
          const norm = value.trim().toLowerCase();
          const option = group.find(
            (f) => (f.optionValue ?? '').toLowerCase() === norm || f.label.trim().toLowerCase() === norm,
          );
          if (!option) continue;
          await this.setChecked(markedLocator(frame, option.id), true);
        } else if (field.kind === 'select') {
          await loc.selectOption(value, { timeout: this.deps.deadline.cap(5000) }).catch(async () => {
            await loc.selectOption({ label: value }, { timeout: this.deps.deadline.cap(5000) });
          });
        } else {
          await this.fillText(frame, field.id, value);
        }
        done.push(key);
        this.deps.step(
          `filled additional field '${key}' (${field.kind} '${field.label || field.name || field.htmlId || field.placeholder}')`,
        );
      } catch {
        this.deps.step(`could not fill additional field '${key}'`);
      }
    }
    return done;
  }

  /** Ticks or unticks a checkbox or radio, also one whose styled label hides the real input. */
  async setChecked(loc: Locator, want: boolean): Promise<void> {
    try {
      await loc.setChecked(want, { timeout: this.deps.deadline.cap(3000) });
    } catch {
      // Custom checkboxes often hide the real input under a styled label: click it programmatically.
      await loc.evaluate((el, w) => {
        const input = el as HTMLInputElement;
        if (input.checked !== w) input.click();
      }, want);
    }
  }

  /**
   * A submit the page keeps disabled until its fields are filled is enabled by the input events of the fills; a
   * framework may re-render first. Called only once the click's own look found it disabled (an enabled control
   * costs no wait and no extra look); waits for that (bounded); still disabled: the submit throws and the next way
   * (Enter) is tried.
   */
  private async untilEnabled(frame: Frame, id: string): Promise<void> {
    await frame.waitForFunction(
      // No named function inside: under tsx (the CLI, the MCP server) esbuild's keepNames wraps one in `__name()`,
      // which the page does not have (runInFrame's scripts get page-script.ts's shim; this one is Playwright's own).
      ([attr, mark]) => {
        const roots: (Document | ShadowRoot)[] = [document];
        for (let i = 0; i < roots.length; i++) {
          const el = roots[i]!.querySelector(`[${attr}="${mark}"]`);
          if (el) return !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true';
          for (const host of Array.from(roots[i]!.querySelectorAll('*')))
            if (host.shadowRoot) roots.push(host.shadowRoot);
        }
        return false;
      },
      [MARK_ATTR, id] as const,
      { timeout: this.deps.deadline.cap(5000) },
    );
    this.deps.step('waited for the submit button to be enabled (it was disabled until the fields were filled)');
  }

  /**
   * Submits like a user: the form's best submit control, else Enter in `field`.
   * Returns a trace line.
   */
  async submit(
    frame: Frame,
    form: FormCandidate,
    field: Locator,
    mode: 'button' | 'enter' | 'request',
  ): Promise<string> {
    const { deadline } = this.deps;
    if (mode === 'button' && form.submit) {
      await this.clickMarked(frame, form.submit.id, { untilEnabled: true });
      return `submitted with ${form.submit.isLink ? 'link' : 'button'} '${form.submit.text || '(no text)'}'`;
    }
    if (mode === 'request') {
      const ok = await field.evaluate((el) => {
        const f = (el as HTMLInputElement).form;
        if (!f) return false;
        f.requestSubmit();
        return true;
      });
      if (ok) return 'submitted the form programmatically (requestSubmit)';
    }
    await field.press('Enter', { timeout: deadline.cap(5000), noWaitAfter: true });
    return 'submitted by pressing Enter in the field';
  }
}
