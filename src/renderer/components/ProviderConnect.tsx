import { useEffect, useState, type FormEvent } from 'react';
import type { ProviderStatus } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';
import { Field } from './Field';

const HOSTED = [
  { name: 'fal', label: 'fal.ai', hint: 'A key from fal.ai/dashboard/keys' },
  { name: 'replicate', label: 'Replicate', hint: 'An API token from replicate.com/account/api-tokens' },
] as const;

/**
 * Connects an AI video provider from the window: a fal.ai key or a Replicate token goes to the secret store
 * (never shown again); ComfyUI needs no key, only its address (config providers.comfyui.baseUrl).
 */
export function ProviderConnect() {
  const [status, setStatus] = useState<ProviderStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    invoke('providers:status')
      .then(setStatus)
      .catch((err: unknown) => setError(errorMessage(err)));
  }, []);
  return (
    <div className="provider-connect" data-testid="provider-connect">
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {HOSTED.map((p) => (
        <KeyForm
          key={p.name}
          provider={p}
          connected={status?.[p.name].connected ?? false}
          onSaved={(s) => setStatus(s)}
        />
      ))}
      {status ? <ComfyForm address={status.comfyui.address} onSaved={setStatus} /> : null}
    </div>
  );
}

function KeyForm({
  provider,
  connected,
  onSaved,
}: {
  provider: (typeof HOSTED)[number];
  connected: boolean;
  onSaved: (s: ProviderStatus) => void;
}) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSaved(await invoke('providers:setKey', { name: provider.name, key }));
      setKey('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="provider-key" onSubmit={submit} aria-label={`Connect ${provider.label}`}>
      <Field
        label={`${provider.label} key`}
        hint={connected ? 'Connected: a key is stored. A new one replaces it.' : provider.hint}
        error={error}
      >
        <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
      </Field>
      <button type="submit" className="btn btn-secondary btn-small" disabled={busy || !key.trim()}>
        {busy ? 'Saving…' : `Save ${provider.label} key`}
      </button>
      {connected ? <span className="badge badge-success">Connected</span> : null}
    </form>
  );
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
