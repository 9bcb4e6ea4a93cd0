import { useState } from 'react';
import type { StorageState } from '../../../shared/ipc-contract.js';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/StatusViews';
import { errorMessage, invoke } from '../../lib/api';
import {
  curlSnippet,
  DEFAULT_SERVER_URL,
  playwrightSnippet,
  storageStateFileName,
  storageStateJson,
  type SessionRequest,
} from '../../lib/snippets';
import { useAppStore } from '../../stores/app-store';

/**
 * Hands a session to an agent: the storageState itself (copy, save as a file) when this window has it,
 * and snippets that fetch it from the app's API (the API key as $KEY, the password as $PASSWORD).
 */
export function SessionExports({
  request,
  state,
  label = 'Use this session in an agent',
}: {
  request: SessionRequest;
  state: StorageState | null;
  /** The section's name; unique when a login's result and a session's detail show side by side. */
  label?: string;
}) {
  const serverUrl = useAppStore((s) => s.appInfo?.serverUrl ?? null);
  const [saved, setSaved] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!state) return;
    setSaving(true);
    setSaveError(null);
    setSaved(null);
    try {
      const res = await invoke('exports:saveText', {
        defaultName: storageStateFileName(request.domain),
        text: storageStateJson(state),
      });
      if (res.saved) setSaved(res.name);
    } catch (err) {
      setSaveError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  const playwright = playwrightSnippet(serverUrl, request);
  const curl = curlSnippet(serverUrl, request);
  return (
    <section className="exports" aria-label={label} data-testid="session-exports">
      <div className="exports-row">
        <span className="exports-title">Hand to an agent</span>
        {state ? (
          <>
            <CopyButton text={storageStateJson(state)} label="Copy JSON (storageState)" caption="Copy JSON" />
            <button type="button" className="btn btn-secondary btn-small" onClick={() => void save()} disabled={saving}>
              {saving ? 'Saving…' : 'Save as file…'}
            </button>
          </>
        ) : null}
        <CopyButton text={playwright} label="Copy Playwright snippet" caption="Copy Playwright" />
        <CopyButton text={curl} label="Copy curl command" caption="Copy curl" />
        <CopyButton text={serverUrl ?? DEFAULT_SERVER_URL} label="Copy server URL" caption="Copy server URL" />
      </div>
      {saved ? (
        <p className="field-hint" role="status">
          Saved as <strong>{saved}</strong>. Load it with{' '}
          <code>
            browser.newContext({'{'} storageState: '{saved}' {'}'})
          </code>
          .
        </p>
      ) : null}
      {saveError ? <ErrorBanner title="Not saved" message={saveError} /> : null}
      <details className="snippet">
        <summary>Playwright</summary>
        <pre className="mono selectable" data-testid="playwright-snippet">
          {playwright}
        </pre>
      </details>
      <details className="snippet">
        <summary>curl</summary>
        <pre className="mono selectable" data-testid="curl-snippet">
          {curl}
        </pre>
      </details>
      <p className="field-hint">
        The snippets read your API key from <code>$KEY</code> and the site password from <code>$PASSWORD</code>; they
        get the cached session while it is fresh.
      </p>
    </section>
  );
}
