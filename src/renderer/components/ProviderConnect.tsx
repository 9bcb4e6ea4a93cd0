import { useEffect, useState, type FormEvent } from 'react';
import type { ProviderStatus } from '../../shared/ipc-contract.js';
import type { HostedProviderStatus } from '../../shared/ipc-studio-channels.js';
import { errorMessage, invoke } from '../lib/api';
import { Field } from './Field';

const HOSTED = [
  { name: 'fal', label: 'fal.ai', hint: 'A key from fal.ai/dashboard/keys' },
  { name: 'replicate', label: 'Replicate', hint: 'An API token from replicate.com/account/api-tokens' },
] as const;

/**
 * Connects an AI video provider from the window: a fal.ai key or a Replicate token goes to the secret store
 * (never shown again) and the provider is asked whether it works; ComfyUI needs no key, only its address (config
 * providers.comfyui.baseUrl). "Connected" is said only after the provider accepted the key.
 */
export function ProviderConnect() {
  const [status, setStatus] = useState<ProviderStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    invoke('providers:status')
      .then(async (s) => {
        if (!live) return;
        setStatus(s);
        // A key stored but not asked about since the app started (or since the CLI stored it) is asked about now.
        for (const p of HOSTED) {
          if (s[p.name].stored && !s[p.name].check) {
            const next = await invoke('providers:check', { name: p.name });
            if (live) setStatus(next);
          }
        }
      })
      .catch((err: unknown) => live && setError(errorMessage(err)));
    return () => {
      live = false;
    };
  }, []);
  return (
    <div className="provider-connect" data-testid="provider-connect">
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {HOSTED.map((p) => (
        <KeyForm key={p.name} provider={p} state={status?.[p.name] ?? null} onSaved={(s) => setStatus(s)} />
      ))}
      {status ? <ComfyForm address={status.comfyui.address} onSaved={setStatus} /> : null}
    </div>
  );
}

function KeyForm({
  provider,
  state,
  onSaved,
}: {
  provider: (typeof HOSTED)[number];
  state: HostedProviderStatus | null;
  onSaved: (s: ProviderStatus) => void;
}) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'saving' | 'checking' | null>(null);
  const run = async (what: 'saving' | 'checking', call: () => Promise<ProviderStatus>) => {
    setBusy(what);
    setError(null);
    try {
      onSaved(await call());
      if (what === 'saving') setKey('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run('saving', () => invoke('providers:setKey', { name: provider.name, key }));
  };
  const checking = busy !== null || (state?.stored === true && state.check === null);
  return (
    <form className="provider-key" onSubmit={submit} aria-label={`Connect ${provider.label}`}>
      <Field
        label={`${provider.label} key`}
        hint={state?.stored ? 'A key is stored. A new one replaces it.' : provider.hint}
        error={error}
      >
        <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
      </Field>
      <button type="submit" className="btn btn-secondary btn-small" disabled={busy !== null || !key.trim()}>
        {busy === 'saving' ? 'Saving and checking…' : `Save ${provider.label} key`}
      </button>
      {state?.stored ? (
        <p className="provider-key-state" role="status">
          <KeyBadge state={state} checking={checking} />
          {state.check && state.check.outcome !== 'connected' ? <span> {state.check.message}</span> : null}
          {state.check && state.check.outcome !== 'connected' && busy === null ? (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => void run('checking', () => invoke('providers:check', { name: provider.name }))}
            >
              Check again
            </button>
          ) : null}
        </p>
      ) : null}
    </form>
  );
}

/** What is known of a stored key: only a provider's yes is "Connected". */
function KeyBadge({ state, checking }: { state: HostedProviderStatus; checking: boolean }) {
  if (checking && state.check === null) return <span className="badge">Checking the key…</span>;
  switch (state.check?.outcome) {
    case 'connected':
      return <span className="badge badge-success">Connected</span>;
    case 'refused':
      return <span className="badge badge-danger">Key refused</span>;
    default:
      return <span className="badge badge-warning">Saved, not checked</span>;
  }
}

/** ComfyUI needs no key: the address its workflows go to (config.json; the core restarts to use it). */
function ComfyForm({ address, onSaved }: { address: string; onSaved: (s: ProviderStatus) => void }) {
  const [value, setValue] = useState(address);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const next = await invoke('providers:setComfyAddress', { address: value });
      onSaved(next);
      setValue(next.comfyui.address);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="provider-key" onSubmit={submit} aria-label="Connect ComfyUI">
      <Field label="ComfyUI address" hint="Where ComfyUI listens; the app restarts its API to use it." error={error}>
        <input className="mono" value={value} onChange={(e) => setValue(e.target.value)} />
      </Field>
      <button
        type="submit"
        className="btn btn-secondary btn-small"
        disabled={busy || !value.trim() || value.trim() === address}
      >
        {busy ? 'Saving…' : 'Save ComfyUI address'}
      </button>
    </form>
  );
}
