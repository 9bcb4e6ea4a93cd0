import { useCallback, useEffect, useState } from 'react';
import type { UpdateChannel, UpdatePolicy, UpdateView } from '../../../shared/updates.schema.js';
import { ActionOutcome, type Outcome } from '../../components/ActionOutcome';
import { ErrorBanner, Loading } from '../../components/StatusViews';
import { errorMessage, invoke } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useAppEvent } from '../../lib/use-app-event';
import { SettingsSection } from './SettingsSection';

const POLICIES: { value: UpdatePolicy; label: string; hint: string }[] = [
  {
    value: 'automatic',
    label: 'Automatic',
    hint: 'Checks at start and every few hours, downloads a new version and installs it when you quit',
  },
  { value: 'ask', label: 'Tell me', hint: 'Checks and tells you here; downloads only when you ask' },
  { value: 'off', label: 'Off', hint: 'Never checks: nothing is fetched' },
];

const CHANNELS: { value: UpdateChannel; label: string; hint: string }[] = [
  { value: 'stable', label: 'Stable', hint: 'Releases only' },
  { value: 'beta', label: 'Beta', hint: 'Prereleases too, to try what comes next' },
];

/** The truth about the updater in one sentence. */
function statusText(view: UpdateView): string {
  const s = view.status;
  switch (s.kind) {
    case 'off':
      return 'Updates are off: Agent Studio does not check for new versions.';
    case 'not-checked':
      return 'Not checked yet.';
    case 'checking':
      return 'Checking for a new version…';
    case 'up-to-date':
      return `Up to date (checked at ${formatDate(s.checkedAt)}): ${view.currentVersion} is the newest ${view.settings.channel} version.`;
    case 'available':
      return `Version ${s.version} is out (checked at ${formatDate(s.checkedAt)}).`;
    case 'downloading':
      return `Downloading version ${s.version}…`;
    case 'ready':
      return `Version ${s.version} is ready: restart to install.`;
    case 'failed':
      return `${s.step === 'check' ? 'Could not check' : s.step === 'download' ? 'Could not download' : 'Could not install'}: ${s.reason}`;
  }
}

/**
 * Settings → Updates: how new versions come (automatic, tell me, off) and which (stable, beta), and what the updater
 * is doing. A restart to install waits while a login or a render runs; the button says so.
 */
export function UpdatesSection() {
  const [view, setView] = useState<UpdateView | null>(null);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const load = useCallback(() => {
    setLoadProblem(null);
    invoke('updates:get').then(setView, (err: unknown) => setLoadProblem(errorMessage(err)));
  }, []);
  useEffect(load, [load]);
  // What holds a restart back may have ended.
  useAppEvent('login:finished', load);
  useAppEvent('generation:finished', load);

  const run = async (action: () => Promise<UpdateView>, said: (next: UpdateView) => Outcome) => {
    setBusy(true);
    setOutcome(null);
    try {
      const next = await action();
      setView(next);
      setOutcome(said(next));
    } catch (err) {
      setOutcome({ text: errorMessage(err), bad: true });
      load();
    } finally {
      setBusy(false);
    }
  };
  const told = (next: UpdateView): Outcome => ({ text: statusText(next), bad: next.status.kind === 'failed' });

  const choose = (policy: UpdatePolicy, channel: UpdateChannel) =>
    run(
      () => invoke('updates:set', { policy, channel }),
      (next) => ({
        text: `Saved: ${POLICIES.find((p) => p.value === next.settings.policy)?.label ?? ''}, ${next.settings.channel} releases.`,
        bad: false,
      }),
    );

  const status = view?.status;
  const blocked = view?.restartBlockedBy ?? null;
  return (
    <SettingsSection
      id="updates"
      title="Updates"
      description={
        view ? (
          <>
            This is Agent Studio {view.currentVersion}. New versions come from{' '}
            <span className="mono settings-path">{view.settings.feedUrl}</span> (
            <span className="mono">updates.feedUrl</span> in config.json).
          </>
        ) : null
      }
    >
      {loadProblem ? <ErrorBanner title="Could not read the updates" message={loadProblem} onRetry={load} /> : null}
      {view && status ? (
        <div className="settings-form">
          <fieldset className="choice-group" disabled={busy}>
            <legend className="label-text">How updates come</legend>
            {POLICIES.map((c) => (
              <label key={c.value} className="choice">
                <input
                  type="radio"
                  name="update-policy"
                  value={c.value}
                  checked={view.settings.policy === c.value}
                  onChange={() => void choose(c.value, view.settings.channel)}
                />
                <span>
                  <span className="choice-label">{c.label}</span>
                  <span className="choice-hint">{c.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <fieldset className="choice-group" disabled={busy}>
            <legend className="label-text">Which versions</legend>
            {CHANNELS.map((c) => (
              <label key={c.value} className="choice">
                <input
                  type="radio"
                  name="update-channel"
                  value={c.value}
                  checked={view.settings.channel === c.value}
                  onChange={() => void choose(view.settings.policy, c.value)}
                />
                <span>
                  <span className="choice-label">{c.label}</span>
                  <span className="choice-hint">{c.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <p className="settings-path" data-testid="update-status">
            {statusText(view)}
          </p>
          {status.kind === 'ready' && (blocked || view.restartPending) ? (
            <p className="field-hint" id="update-restart-why" data-testid="update-restart-why">
              {view.restartPending ? `Restart asked. ${blocked ?? 'Restarting…'}` : blocked}
            </p>
          ) : null}
          <div className="form-actions">
            {status.kind !== 'off' ? (
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy || status.kind === 'checking' || status.kind === 'downloading'}
                onClick={() => void run(() => invoke('updates:check'), told)}
              >
                Check now
              </button>
            ) : null}
            {status.kind === 'available' ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy}
                onClick={() => void run(() => invoke('updates:download'), told)}
              >
                Download version {status.version}
              </button>
            ) : null}
            {status.kind === 'ready' ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy || blocked !== null || view.restartPending}
                aria-describedby={blocked || view.restartPending ? 'update-restart-why' : undefined}
                onClick={() =>
                  void run(
                    () => invoke('updates:install'),
                    (next) =>
                      next.restartPending
                        ? { text: `The restart waits: ${next.restartBlockedBy ?? 'work is running'}`, bad: false }
                        : { text: 'Restarting to install…', bad: false },
                  )
                }
              >
                Restart to install
              </button>
            ) : null}
          </div>
          <ActionOutcome outcome={outcome} errorTitle="Not done" testId="update-outcome" />
        </div>
      ) : loadProblem ? null : (
        <Loading label="Reading the updates…" />
      )}
    </SettingsSection>
  );
}
