import { useCallback, useEffect, useState } from 'react';
import type { AutostartState } from '../../../shared/ipc-autostart-channels.js';
import { ActionOutcome, type Outcome } from '../../components/ActionOutcome';
import { ErrorBanner, Loading, Notice } from '../../components/StatusViews';
import { errorMessage, invoke } from '../../lib/api';
import { SettingsSection } from './SettingsSection';

const IN_BACKGROUND = 'It starts in the background: the local API for agents and the tray (menu-bar) icon, no window.';

/** What a change led to, judged by what the OS says afterwards (not by what was asked). */
function outcomeOf(asked: boolean, state: AutostartState): Outcome {
  if (asked && state.on)
    return {
      text: `Turned on: from your next login the system starts Agent Studio in the background.${state.note ? ` ${state.note}` : ''}`,
      bad: false,
    };
  if (!asked && !state.on) return { text: 'Turned off: Agent Studio no longer starts when you log in.', bad: false };
  return {
    text:
      state.note ??
      (asked
        ? 'The system did not take the change: it does not start Agent Studio at login.'
        : 'The system still starts Agent Studio at login.'),
    bad: true,
  };
}

/** Where the person finds it outside the app: the autostart file, or the system's list of what starts at login. */
function WhereKept({ state }: { state: AutostartState }) {
  return state.mechanism === 'xdg-autostart' ? (
    <>
      Kept in <span className="mono">{state.where}</span>, which your desktop's list of startup applications shows.
    </>
  ) : (
    <>Listed in {state.where}.</>
  );
}

/**
 * Settings → Start-up: whether the OS starts Agent Studio when the person logs in, so agents find the API after a
 * restart without anyone opening the app. The state shown is what the OS says (read again after each change).
 */
export function StartupSection() {
  const [state, setState] = useState<AutostartState | null>(null);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [asked, setAsked] = useState(true);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const load = useCallback(() => {
    setLoadProblem(null);
    invoke('autostart:get').then(setState, (err: unknown) => setLoadProblem(errorMessage(err)));
  }, []);
  useEffect(load, [load]);

  const change = async (on: boolean) => {
    setBusy(true);
    setAsked(on);
    setOutcome(null);
    try {
      const next = await invoke('autostart:set', { on });
      setState(next);
      setOutcome(outcomeOf(on, next));
    } catch (err) {
      setOutcome({ text: errorMessage(err), bad: true });
      // What the OS says after the refused change, not what the checkbox was set to.
      load();
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection
      id="startup"
      title="Start-up"
      description="After a restart agents find the local API only once Agent Studio runs: let the system start it when you log in."
    >
      {loadProblem ? (
        <ErrorBanner title="Could not read the start at login" message={loadProblem} onRetry={load} />
      ) : null}
      {state ? (
        <div className="settings-form">
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                // While the change is under way the box shows what was asked ("Changing…" beside it), then what
                // the OS says: no flicker back to the old state in between.
                checked={busy ? asked : state.on}
                disabled={busy || state.unavailable !== null}
                aria-describedby="autostart-how autostart-state"
                onChange={(e) => void change(e.target.checked)}
              />
              Start Agent Studio when I log in
            </label>
            <p className="field-hint" id="autostart-how">
              {IN_BACKGROUND}
            </p>
          </div>
          <p className="muted autostart-state" id="autostart-state" data-testid="autostart-state">
            {busy
              ? 'Changing…'
              : state.on
                ? 'On: the system starts Agent Studio at your next login.'
                : 'Off: Agent Studio starts only when you open it.'}{' '}
            <WhereKept state={state} />
          </p>
          {state.unavailable ? <Notice tone="info">{state.unavailable}</Notice> : null}
          {/* Said once: in the outcome after a change, here before one. */}
          {state.note && !outcome ? <Notice tone="warning">{state.note}</Notice> : null}
          <ActionOutcome outcome={outcome} errorTitle={asked ? 'Not on' : 'Still on'} testId="autostart-outcome" />
        </div>
      ) : loadProblem ? null : (
        <Loading label="Reading the start at login…" />
      )}
    </SettingsSection>
  );
}
