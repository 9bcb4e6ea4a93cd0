import { useState, type FormEvent } from 'react';
import { LOGIN_METHODS } from '../../../shared/login.schema.js';
import { Field } from '../../components/Field';
import { ErrorBanner } from '../../components/StatusViews';
import { ApiError, errorMessage, invoke } from '../../lib/api';
import { LoginResultView, type LoginTestResult } from './LoginResultView';

const METHOD_LABELS: Record<string, string> = {
  password: 'Password',
  oauth_google: 'Google OAuth',
  otp_email: 'E-mail one-time code',
  magic_link: 'Magic link',
};

export function LoginTestForm({ onDone }: { onDone: () => void }) {
  const [url, setUrl] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [method, setMethod] = useState<(typeof LOGIN_METHODS)[number]>('password');
  const [useCache, setUseCache] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [result, setResult] = useState<LoginTestResult | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^https?:\/\/\S+/i.test(url.trim())) {
      setUrlError('Enter the full login page URL, starting with http:// or https://');
      return;
    }
    setUrlError(null);
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const started = Date.now();
      const { body, headers } = await invoke('sessions:testLogin', {
        body: { domain: url.trim(), cred: { username, password }, loginMethod: method, useCache },
      });
      setResult({ ...body, duration_ms: Date.now() - started, from_cache: headers['x-session-cache'] === 'hit' });
      onDone();
    } catch (err) {
      setError({ code: err instanceof ApiError ? err.code : 'error', message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="login-test-title">
      <div className="card-header">
        <h2 id="login-test-title">Test a login</h2>
        <span className="muted">Runs the same login an agent would, with a real browser.</span>
      </div>
      <form className="form-grid" onSubmit={submit} aria-label="Test a login" noValidate>
        <div className="span-2">
          <Field label="Login page URL" required error={urlError} hint="The page that shows the sign-in form.">
            <input
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.com/login"
              autoComplete="off"
            />
          </Field>
        </div>
        <Field label="Username">
          <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Password">
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="off" />
        </Field>
        <Field label="Login method">
          <select value={method} onChange={(e) => setMethod(e.target.value as typeof method)}>
            {LOGIN_METHODS.map((m) => (
              <option key={m} value={m}>
                {METHOD_LABELS[m] ?? m}
              </option>
            ))}
          </select>
        </Field>
        <div className="field checkbox-field">
          <label className="checkbox">
            <input type="checkbox" checked={useCache} onChange={(e) => setUseCache(e.target.checked)} />
            Use a cached session if there is one
          </label>
        </div>
        <div className="form-actions span-2">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Logging in…' : 'Run login'}
          </button>
          {busy ? <span className="muted">A fresh login can take up to a minute.</span> : null}
        </div>
      </form>
      {error ? <ErrorBanner title={`Login failed (${error.code})`} message={error.message} /> : null}
      {result ? <LoginResultView result={result} /> : null}
    </section>
  );
}
