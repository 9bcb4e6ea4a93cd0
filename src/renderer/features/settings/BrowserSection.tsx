import type { FormEvent } from 'react';
import type { CoreSettingsPatch, DesktopSettings } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { Notice } from '../../components/StatusViews';
import { useDraft } from '../../lib/use-draft';
import { RESTART_HINT, SettingsSection } from './SettingsSection';
import { useCoreSettingsSave } from './use-core-settings-save';

const LABELS = {
  'browser.executablePath': 'Browser program',
  'browser.connectEndpoint': 'Browser endpoint',
  'browser.maxContexts': 'Logins at once',
  'jobs.renderConcurrency': 'Renders at once',
};

type BrowserMode = 'auto' | 'program' | 'remote';

interface BrowserDraft {
  mode: BrowserMode;
  executablePath: string;
  connectEndpoint: string;
  maxContexts: string;
  renderConcurrency: string;
}

function draftOf(s: DesktopSettings): BrowserDraft {
  const b = s.core.browser;
  return {
    mode: b.connectEndpoint ? 'remote' : b.executablePath ? 'program' : 'auto',
    executablePath: b.executablePath ?? '',
    connectEndpoint: b.connectEndpoint ?? '',
    maxContexts: String(b.maxContexts),
    renderConcurrency: s.core.jobs.renderConcurrency === null ? '' : String(s.core.jobs.renderConcurrency),
  };
}

/** What the automatic search found on this computer, in words. */
function autoHint(found: DesktopSettings['autoBrowser']): string {
  if (!found.found) return `None found: ${found.problem}`;
  const where = found.source === 'playwright' ? 'installed by Playwright' : 'installed on this computer';
  return `Found: ${found.path} (${where}). Otherwise Chrome, Chromium, Edge or Brave, wherever they are installed.`;
}

const wholeIn = (text: string, min: number, max: number) => {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : null;
};

export function BrowserSection({ settings }: { settings: DesktopSettings }) {
  const [draft, setDraft, clearDraft] = useDraft<BrowserDraft>('settings:browser', () => draftOf(settings));
  const form = useCoreSettingsSave(LABELS);
  const locked = settings.lockedByEnv;
  const set = <K extends keyof BrowserDraft>(key: K, value: BrowserDraft[K], field?: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    if (field) form.clear(field);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const maxContexts = wholeIn(draft.maxContexts, 1, 32);
    if (maxContexts === null) found['browser.maxContexts'] = 'A whole number from 1 to 32';
    const renders = draft.renderConcurrency.trim() === '' ? null : wholeIn(draft.renderConcurrency, 0, 64);
    if (renders === null && draft.renderConcurrency.trim() !== '')
      found['jobs.renderConcurrency'] = 'A whole number from 0 to 64, or empty for automatic';
    if (draft.mode === 'program' && !draft.executablePath.trim()) found['browser.executablePath'] = 'Required';
    if (draft.mode === 'remote' && !draft.connectEndpoint.trim()) found['browser.connectEndpoint'] = 'Required';
    if (!form.check(found)) return;
    // Only what changed, and nothing an environment variable fixes (config.json would not win anyway).
    const now = settings.core;
    const browser: NonNullable<CoreSettingsPatch['browser']> = {};
    const executablePath = draft.mode === 'program' ? draft.executablePath.trim() : null;
    const connectEndpoint = draft.mode === 'remote' ? draft.connectEndpoint.trim() : null;
    if (!locked['browser.executablePath'] && executablePath !== now.browser.executablePath)
      browser.executablePath = executablePath;
    if (!locked['browser.connectEndpoint'] && connectEndpoint !== now.browser.connectEndpoint)
      browser.connectEndpoint = connectEndpoint;
    if (!locked['browser.maxContexts'] && maxContexts !== null && maxContexts !== now.browser.maxContexts)
      browser.maxContexts = maxContexts;
    await form.save(
      {
        ...(Object.keys(browser).length ? { browser } : {}),
        ...(renders !== now.jobs.renderConcurrency ? { jobs: { renderConcurrency: renders } } : {}),
      },
      () => clearDraft(),
    );
  };

  const lockHint = (field: string) => (locked[field] ? `Set by the environment variable ${locked[field]}.` : undefined);
  return (
    <SettingsSection
      id="browser"
      title="Browser and concurrency"
      description="The Chromium-family browser that logs in, and how much runs at once on this computer."
    >
      <form
        ref={form.formRef}
        onSubmit={submit}
        noValidate
        aria-label="Browser and concurrency"
        className="settings-form"
      >
        <fieldset className="choice-group">
          <legend className="label-text">Browser</legend>
          {(
            [
              ['auto', 'Find one automatically', autoHint(settings.autoBrowser)],
              ['program', 'This program', 'The full path of a Chromium-family browser.'],
              [
                'remote',
                'A running browser',
                'Connect to a Playwright server (ws://) or a Chrome DevTools endpoint (http://).',
              ],
            ] as const
          ).map(([mode, label, hint]) => (
            <label key={mode} className="choice">
              <input
                type="radio"
                name="browser-mode"
                checked={draft.mode === mode}
                onChange={() => set('mode', mode)}
              />
              <span>
                <span className="choice-label">{label}</span>
                <span className="choice-hint">{hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="form-grid">
          {draft.mode === 'program' ? (
            <div className="span-2">
              <Field
                label="Browser program"
                required
                error={form.errors['browser.executablePath']}
                hint={lockHint('browser.executablePath')}
              >
                <input
                  value={draft.executablePath}
                  onChange={(e) => set('executablePath', e.target.value, 'browser.executablePath')}
                  placeholder="/usr/bin/chromium"
                  spellCheck={false}
                  disabled={Boolean(locked['browser.executablePath'])}
                />
              </Field>
            </div>
          ) : null}
          {draft.mode === 'remote' ? (
            <div className="span-2">
              <Field
                label="Browser endpoint"
                required
                error={form.errors['browser.connectEndpoint']}
                hint={lockHint('browser.connectEndpoint')}
              >
                <input
                  value={draft.connectEndpoint}
                  onChange={(e) => set('connectEndpoint', e.target.value, 'browser.connectEndpoint')}
                  placeholder="ws://127.0.0.1:3000/"
                  spellCheck={false}
                  disabled={Boolean(locked['browser.connectEndpoint'])}
                />
              </Field>
            </div>
          ) : null}
          <Field
            label="Logins at once"
            error={form.errors['browser.maxContexts']}
            hint={lockHint('browser.maxContexts') ?? 'Browser contexts open at the same time (1–32).'}
          >
            <input
              type="number"
              min={1}
              max={32}
              value={draft.maxContexts}
              onChange={(e) => set('maxContexts', e.target.value, 'browser.maxContexts')}
              disabled={Boolean(locked['browser.maxContexts'])}
            />
          </Field>
          <Field
            label="Renders at once"
            error={form.errors['jobs.renderConcurrency']}
            hint={`Local ffmpeg renders at the same time; empty is automatic (${settings.core.jobs.renderConcurrencyAuto} here), 0 pauses rendering.`}
          >
            <input
              type="number"
              min={0}
              max={64}
              value={draft.renderConcurrency}
              placeholder={`Automatic (${settings.core.jobs.renderConcurrencyAuto})`}
              onChange={(e) => set('renderConcurrency', e.target.value, 'jobs.renderConcurrency')}
            />
          </Field>
        </div>
        {form.failure ? <ApiErrorBanner title="The settings were not saved" error={form.failure} /> : null}
        {form.outcome ? <Notice tone={form.outcome.tone}>{form.outcome.text}</Notice> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={form.busy}>
            {form.busy ? 'Restarting…' : 'Save and restart'}
          </button>
          <span className="muted">{RESTART_HINT}</span>
        </div>
      </form>
    </SettingsSection>
  );
}
