import type { Frame, Locator, Page } from 'playwright-core';
import {
  scanLoginForm,
  type FormCandidate,
  type FrameScan,
  type ScannedButton,
  type ScannedField,
} from './form-scan.js';
import { scanCodePrompt, type CodePrompt } from './code-scan.js';
import { scanIdentityProviderButtons, type IdentityProvider } from './idp-scan.js';
import { markerSelector, nextScanId, runInFrame } from './page-script.js';
import { findSignInControls } from './sign-in-scan.js';

export type { FormCandidate, FrameScan, ScannedButton, ScannedField } from './form-scan.js';
export type { CodeChannel, CodePrompt } from './code-scan.js';
export { scanLoginForm } from './form-scan.js';

export interface LocatedForm {
  frame: Frame;
  isMainFrame: boolean;
  candidate: FormCandidate;
}

export interface PageScan {
  /** Best password form, or failing that the best identifier-first form, across all frames. */
  form?: LocatedForm;
  signInLinks: { frame: Frame; button: ScannedButton }[];
  /** Controls that start a sign-in with the identity provider the scan was asked about (best first). */
  idpButtons: { frame: Frame; button: ScannedButton }[];
  /** A one-time-code prompt, looked for only when there is no login form. */
  codePrompt?: LocatedCodePrompt;
  pageFields: { frame: Frame; field: ScannedField }[];
  rejected: string[];
  visiblePasswordCount: number;
  hiddenPasswordCount: number;
}

export interface LocatedCodePrompt {
  frame: Frame;
  prompt: CodePrompt;
}

/** Locator for an element the in-page scanner marked. */
export function markedLocator(frame: Frame, id: string): Locator {
  return frame.locator(markerSelector(id));
}

/** Runs the in-page login-form scanner in every frame of the page and merges the results. */
export class FormFinder {
  /**
   * `provider`: also look for that identity provider's sign-in buttons (oauth logins).
   * `formOnly`: only the login form (no sign-in links or code prompt when there is none): the
   * quick "is a login form shown?" look that confirms a success.
   */
  async scan(page: Page, opts: { provider?: IdentityProvider; formOnly?: boolean } = {}): Promise<PageScan> {
    const scanId = nextScanId();
    const frames = page.frames();
    const mainFrame = page.mainFrame();
    const scans = await Promise.all(
      frames.map(async (frame) => ({
        frame,
        scan: await runInFrame<Record<string, never>, FrameScan>(frame, scanLoginForm, {}, scanId),
      })),
    );
    // After the form scan, which clears the marks of earlier scans.
    const out: PageScan = {
      idpButtons: opts.provider ? await this.scanIdpButtons(page, opts.provider) : [],
      signInLinks: [],
      pageFields: [],
      rejected: [],
      visiblePasswordCount: 0,
      hiddenPasswordCount: 0,
    };
    let best: { located: LocatedForm; rank: number } | undefined;
    for (const { frame, scan } of scans) {
      if (!scan) continue;
      const isMainFrame = frame === mainFrame;
      out.rejected.push(...scan.rejected);
      out.visiblePasswordCount += scan.visiblePasswordCount;
      out.hiddenPasswordCount += scan.hiddenPasswordCount;
      for (const candidate of scan.forms) {
        // Password forms beat identifier forms; ties go to the main frame.
        const rank = (candidate.kind === 'password' ? 1000 : 0) + candidate.score + (isMainFrame ? 0.5 : 0);
        if (!best || rank > best.rank) best = { located: { frame, isMainFrame, candidate }, rank };
      }
      for (const field of scan.pageFields) out.pageFields.push({ frame, field });
    }
    out.form = best?.located;
    // No login form: look for what leads to one (sign-in links, a tab or toggle that shows a hidden form).
    if (!out.form && !opts.formOnly) {
      const linksId = nextScanId();
      const [found, code] = await Promise.all([
        Promise.all(
          scans.map(async ({ frame, scan }) =>
            scan
              ? {
                  frame,
                  controls: await runInFrame<Record<string, never>, ScannedButton[]>(
                    frame,
                    findSignInControls,
                    {},
                    linksId,
                  ),
                }
              : { frame, controls: undefined },
          ),
        ),
        this.scanCodePrompt(page),
      ]);
      for (const { frame, controls } of found)
        for (const button of controls ?? []) out.signInLinks.push({ frame, button });
      out.codePrompt = code;
    }
    out.signInLinks.sort((a, b) => b.button.score - a.button.score);
    return out;
  }

  /** The best one-time-code prompt across frames (no marks are cleared: a watched field stays marked). */
  async scanCodePrompt(page: Page): Promise<LocatedCodePrompt | undefined> {
    const id = nextScanId();
    const found = await Promise.all(
      page.frames().map(async (frame) => ({
        frame,
        prompt: await runInFrame<Record<string, never>, CodePrompt | null>(frame, scanCodePrompt, {}, id),
      })),
    );
    let best: LocatedCodePrompt | undefined;
    for (const { frame, prompt } of found)
      if (prompt && (!best || prompt.score > best.prompt.score)) best = { frame, prompt };
    return best;
  }

  private async scanIdpButtons(page: Page, provider: IdentityProvider): Promise<PageScan['idpButtons']> {
    const id = nextScanId();
    const found = await Promise.all(
      page.frames().map(async (frame) => ({
        frame,
        buttons: await runInFrame(frame, scanIdentityProviderButtons, { provider }, id),
      })),
    );
    return found
      .flatMap(({ frame, buttons }) => (buttons ?? []).map((button) => ({ frame, button })))
      .sort((a, b) => b.button.score - a.button.score);
  }
}
