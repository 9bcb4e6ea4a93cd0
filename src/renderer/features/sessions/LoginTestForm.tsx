import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '../../components/Field';
import { ErrorBanner } from '../../components/StatusViews';
import { ApiError } from '../../lib/api';
import { loginFailureWords } from '../../lib/login-failure-words';
import { useDraft } from '../../lib/use-draft';
import { useFormErrors } from '../../lib/use-form-errors';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import { fieldsOf, LOGIN_FIELDS, parseExtraFields, type LoginFieldKey, type MethodField } from './login-method-fields';
import { LoginProgress } from './LoginProgress';
import { LoginResultView } from './LoginResultView';

/** What the form holds; kept in the store's drafts, so it is still filled in after visiting another screen. */
interface LoginDraft {
  url: string;
  method: string;
  values: Partial<Record<LoginFieldKey, string>>;
  useCache: boolean;
  /** A CAPTCHA, a code with no source or an unknown form is handed to the person (the Needs you banner). */
  interactive?: boolean;
}

// A cached session is off by default: the form is for testing the login itself, and a cached answer tests nothing.
const EMPTY: LoginDraft = { url: '', method: 'password', values: {}, useCache: false, interactive: true };

const LABELS: Record<string, string> = {
  domain: 'Login page URL',
  loginMethod: 'Login method',
  ...Object.fromEntries(Object.entries(LOGIN_FIELDS).map(([k, v]) => [k, v.label])),
};

export function LoginTestForm({ onDone }: { onDone: () => void }) {
  const [draft, setDraft] = useDraft<LoginDraft>('login-test', EMPTY);
  const methods = useAppStore((s) => s.loginMethods);
  const loadMethods = useAppStore((s) => s.loadLoginMethods);
  const run = useAppStore((s) => s.loginRun);
  const runLogin = useAppStore((s) => s.runLogin);
  // A running login that stopped for the person is not "Logging in…": it waits for them (its panel below says why).
  const waitsForPerson = useAppStore((s) => s.waitingLogins.some((w) => w.loginId === s.loginRun?.loginId));
  const form = useFormErrors(LABELS);
  const [busy, setBusy] = useState(false);
  // A started login brings its live steps into view with focus; its outcome (result or failure) is scrolled to
  // when it arrives, inside the same panel, so the failure's alert is announced where the person is.
  const outcomeRef = useScrollIntoView<HTMLDivElement>(
    run ? `${run.loginId}:${run.status === 'running' ? 'started' : 'ended'}` : null,
    { focus: true },
  );

  useEffect(() => {
    if (methods.status === 'idle') void loadMethods();
  }, [methods.status, loadMethods]);

  const method = methods.data.find((m) => m.id === draft.method);
  const fields = fieldsOf(method);
  const needed = fields.filter((f) => f.required);
  const optional = fields.filter((f) => !f.required);
  const setValue = (key: LoginFieldKey, value: string) => {
    setDraft((d) => ({ ...d, values: { ...d.values, [key]: value } }));
    form.clear(key);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!/^https?:\/\/\S+/i.test(draft.url.trim()))
      found.domain = 'Enter the full login page URL, starting with http:// or https://';
    for (const f of fields) {
      if (f.required && !draft.values[f.key]?.trim())
        found[f.key] = `${LOGIN_FIELDS[f.key].label} is needed for this login method`;
    }
    const extra = parseExtraFields(draft.values.additionalFields ?? '');
    if (extra.bad) found.additionalFields = extra.bad;
    if (!form.check(found)) return;

    const shown = new Set(fields.map((f) => f.key));
    const value = (key: LoginFieldKey) => (shown.has(key) ? (draft.values[key] ?? '') : '');
    const additionalFields: Record<string, string> = { ...(shown.has('additionalFields') ? extra.fields : {}) };
    if (value('additionalFields.phone')) additionalFields.phone = value('additionalFields.phone').trim();
    if (value('additionalFields.email')) additionalFields.email = value('additionalFields.email').trim();
    setBusy(true);
    try {
      const finished = await runLogin({
        domain: draft.url.trim(),
        cred: {
          username: value('cred.username'),
          password: value('cred.password'),
          ...(value('cred.totpSecret') ? { totpSecret: value('cred.totpSecret').trim() } : {}),
        },
        loginMethod: draft.method,
        additionalFields,
        useCache: draft.useCache,
        interactive: draft.interactive ?? true,
      });
      if (finished.status === 'succeeded') onDone();
      else if (finished.status === 'failed' && finished.error?.details)
        // A request the service refused (a missing or malformed field) is shown on that field.
        form.fail(new ApiError(finished.error.code, finished.error.message, finished.error.details));
    } finally {
      setBusy(false);
    }
  };

  const error = run?.status === 'failed' && run.error ? run.error : null;
  const shownAsFields = error && Object.keys(form.errors).length > 0;
  return (
    <section className="card" aria-labelledby="login-test-title">
      <div className="card-header">
        <h2 id="login-test-title">Test a login</h2>
        <span className="muted">Runs the same login an agent would, with a real browser.</span>
      </div>
      <form
        className="form-grid"
        ref={form.formRef}
        onSubmit={submit}
        aria-label="Test a login"
        noValidate
        data-primary-form
      >
        <div className="span-2">
          <Field
            label="Login page URL"
            required
            error={form.errors.domain}
            hint="The page that shows the sign-in form."
          >
            <input
              type="url"
              value={draft.url}
              onChange={(e) => {
                setDraft((d) => ({ ...d, url: e.target.value }));
                form.clear('domain');
              }}
              placeholder="https://example.com/login"
              autoComplete="off"
            />
          </Field>
        </div>
        {/* One field per row, or two side by side in a row: what the eye reads next is what Tab reaches next. */}
        <div className="span-2 login-method-field">
          <Field
            label="Login method"
            error={form.errors.loginMethod}
            hint={
              methods.status === 'error'
                ? `The server’s list of methods could not be read (${methods.error}).`
                : method?.description
            }
          >
            <select
              value={draft.method}
              onChange={(e) => setDraft((d) => ({ ...d, method: e.target.value }))}
              disabled={methods.status !== 'ready'}
            >
              {methods.data.length === 0 ? <option value="password">Password</option> : null}
              {methods.data.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {needed.map((f) => (
          <MethodInput
            key={f.key}
            field={f}
            value={draft.values[f.key] ?? ''}
            error={form.errors[f.key]}
            onChange={(v) => setValue(f.key, v)}
          />
        ))}
        {optional.length ? (
          // Open when one of them holds something or is wrong, so nothing typed is out of sight.
          <details
            className="advanced span-2"
            open={optional.some((f) => draft.values[f.key] || form.errors[f.key]) || undefined}
          >
            <summary>
              Optional for this method: {optional.map((f) => LOGIN_FIELDS[f.key].label.toLowerCase()).join(', ')}
            </summary>
            <div className="form-grid">
              {optional.map((f) => (
                <MethodInput
                  key={f.key}
                  field={f}
                  value={draft.values[f.key] ?? ''}
                  error={form.errors[f.key]}
                  onChange={(v) => setValue(f.key, v)}
                />
              ))}
            </div>
          </details>
        ) : null}
        <div className="field checkbox-field span-2">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.useCache}
              onChange={(e) => setDraft((d) => ({ ...d, useCache: e.target.checked }))}
            />
            Use a cached session if there is one
          </label>
        </div>
        <div className="field checkbox-field span-2">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.interactive ?? true}
              onChange={(e) => setDraft((d) => ({ ...d, interactive: e.target.checked }))}
            />
            Let me finish it here if it stops at a CAPTCHA, a code or a page it does not understand
          </label>
        </div>
        <div className="form-actions span-2">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy}
            aria-keyshortcuts="Control+Enter Meta+Enter"
          >
            {busy ? (waitsForPerson ? 'Waiting for you…' : 'Logging in…') : 'Run login'}
          </button>
          {busy ? (
            <span className="muted">
              {waitsForPerson ? 'It waits for you: see below.' : 'A fresh login can take up to a minute.'}
            </span>
          ) : null}
        </div>
      </form>
      <div
        ref={outcomeRef}
        tabIndex={-1}
        className="login-outcome"
        role={run ? 'region' : undefined}
        aria-label={run ? 'Login progress and outcome' : undefined}
        data-testid="login-outcome"
      >
        <LoginProgress />
        {error && !shownAsFields ? (
          <div className="login-failure">
            <ErrorBanner title={loginFailureWords(error.code).title} message={error.message} />
            <p className="next-step">
              <strong>What to do:</strong> {loginFailureWords(error.code).next}{' '}
              <span className="muted">(code {error.code})</span>
            </p>
          </div>
        ) : null}
        {run?.status === 'succeeded' && run.result ? (
          <LoginResultView result={run.result} request={run.request} />
        ) : null}
      </div>
    </section>
  );
}

function MethodInput({
  field,
  value,
  error,
  onChange,
}: {
  field: MethodField;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const def = LOGIN_FIELDS[field.key];
  const label = field.email ? 'Email address (username)' : def.label;
  const hint = 'hint' in def ? def.hint : field.email ? 'The code or link is sent here.' : undefined;
  const wide = def.type === 'textarea';
  const input =
    def.type === 'textarea' ? (
      <textarea rows={2} value={value} onChange={(e) => onChange(e.target.value)} spellCheck={false} />
    ) : (
      <input
        type={field.email ? 'email' : def.type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
    );
  return (
    <div className={wide ? 'span-2' : undefined}>
      <Field label={field.email ? label : def.label} required={field.required} error={error} hint={hint}>
        {input}
      </Field>
    </div>
  );
}
