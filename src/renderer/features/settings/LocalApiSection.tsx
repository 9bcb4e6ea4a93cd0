import { useState, type FormEvent } from 'react';
import type { DesktopSettings } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { CopyButton } from '../../components/CopyButton';
import { Field } from '../../components/Field';
import { Notice } from '../../components/StatusViews';
import { errorMessage, invoke } from '../../lib/api';
import { useDraft } from '../../lib/use-draft';
import { useAppStore } from '../../stores/app-store';
import { RESTART_HINT, SettingsSection } from './SettingsSection';
import { useCoreSettingsSave } from './use-core-settings-save';

const LABELS = { 'server.port': 'Port' };

export function LocalApiSection({ settings }: { settings: DesktopSettings }) {
  const info = useAppStore((s) => s.appInfo);
  const status = useAppStore((s) => s.apiStatus);
  const configured = String(settings.core.server.port);
  const [port, setPort, clearPort] = useDraft('settings:port', configured);
  const form = useCoreSettingsSave(LABELS);
  const [folderProblem, setFolderProblem] = useState<string | null>(null);
  const [referenceProblem, setReferenceProblem] = useState<string | null>(null);
  const locked = settings.lockedByEnv['server.port'];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = port.trim();
    const n = Number(value);
    if (
      !form.check(value === '' || !Number.isInteger(n) ? { 'server.port': 'Enter a whole number from 0 to 65535' } : {})
    )
      return;
    await form.save({ server: { port: n } }, () => clearPort());
  };

  const openFolder = async () => {
    try {
      await invoke('app:openDataFolder');
      setFolderProblem(null);
    } catch (err) {
      setFolderProblem(errorMessage(err));
    }
  };

  // Main opens its own server's GET /docs in the person's browser (the page names no address).
  const openReference = async () => {
    try {
      await invoke('app:openApiReference');
      setReferenceProblem(null);
    } catch (err) {
      setReferenceProblem(errorMessage(err));
    }
  };

  const url = info?.serverUrl ?? null;
  return (
    <SettingsSection
      id="local-api"
      title="Local API"
      description="Agents on this computer call this address with an API key (see API keys below)."
    >
      <div className="address-row">
        <span className="label-text">Address</span>
        {url ? (
          <>
            <code className="address" data-testid="api-address">
              {url}
            </code>
            <CopyButton text={url} label="Copy the API address" />
          </>
        ) : (
          <span className="muted">Not listening</span>
        )}
        {status ? (
          <span
            className={`badge badge-${status.state === 'up' ? 'success' : status.state === 'restarting' ? 'warning' : 'danger'}`}
          >
            {status.state === 'up' ? 'Answering' : status.state === 'restarting' ? 'Restarting' : 'Not answering'}
          </span>
        ) : null}
      </div>
      {info?.serverError ? <Notice tone="warning">{info.serverError}</Notice> : null}
      <form className="inline-form" ref={form.formRef} onSubmit={submit} noValidate aria-label="API port">
        <Field
          label="Port"
          error={form.errors['server.port']}
          hint={
            locked
              ? `Set by the environment variable ${locked}.`
              : `0 lets the system pick a free port. ${RESTART_HINT}`
          }
        >
          <input
            type="number"
            min={0}
            max={65535}
            value={port}
            disabled={Boolean(locked)}
            onChange={(e) => {
              setPort(e.target.value);
              form.clear('server.port');
            }}
          />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={form.busy || Boolean(locked)}>
          {form.busy ? 'Restarting…' : 'Save and restart'}
        </button>
      </form>
      {form.failure ? <ApiErrorBanner title="The port was not changed" error={form.failure} /> : null}
      {form.outcome ? <Notice tone={form.outcome.tone}>{form.outcome.text}</Notice> : null}
      {url ? (
        <div className="reference-row">
          <div>
            <span className="label-text">API reference</span>
            <p className="field-hint">
              Every route with its scope, request and answer, in your browser (served by this app, offline). Paste an
              API key there to try a call.
            </p>
          </div>
          <button type="button" className="btn btn-secondary" onClick={() => void openReference()}>
            Open API reference
          </button>
        </div>
      ) : null}
      {referenceProblem ? <p className="error-text">{referenceProblem}</p> : null}
      <div className="folder-row">
        <div>
          <span className="label-text">Data folder</span>
          <p className="mono path" data-testid="data-dir">
            {settings.dataDir}
          </p>
          <p className="field-hint">
            Database, logs, stored files and <code>config.json</code> (the settings below are written there).
          </p>
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => void openFolder()}>
          Open folder
        </button>
      </div>
      {folderProblem ? <p className="error-text">{folderProblem}</p> : null}
    </SettingsSection>
  );
}
