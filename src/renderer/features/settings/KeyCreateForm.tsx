import { useState, type FormEvent } from 'react';
import { SCOPES } from '../../../shared/scopes.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { useDraft } from '../../lib/use-draft';
import { useFormErrors } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';
import type { CreatedKey } from '../../stores/admin.slice';

const LABELS = { name: 'Name', scopes: 'Scopes', expiresInDays: 'Expires' };

/** What each scope allows, in a few words (docs/security.md#keys-scopes-and-rate-limits). */
const SCOPE_HINTS: Record<string, string> = {
  'login:write': 'log in (POST /api/login)',
  'sessions:read': 'list cached sessions',
  'sessions:write': 'delete cached sessions',
  'mailboxes:read': 'list mailboxes',
  'mailboxes:write': 'add, check and remove mailboxes',
  'templates:read': 'read templates, generate, upload',
  'templates:write': 'edit templates',
  'characters:read': 'list characters',
  'characters:write': 'create characters',
  'generations:read': 'read generations',
  'generations:write': 'cancel generations',
  'credits:read': 'read the balance',
  'webhooks:read': 'read the webhook secret',
  'webhooks:write': 'rotate the webhook secret',
};

interface KeyDraft {
  name: string;
  all: boolean;
  scopes: string[];
  expires: string;
}

const EMPTY: KeyDraft = { name: '', all: false, scopes: ['login:write'], expires: '' };

export function KeyCreateForm({ onCreated }: { onCreated: (created: CreatedKey) => void }) {
  const createKey = useAppStore((s) => s.createKey);
  const [draft, setDraft, clearDraft] = useDraft<KeyDraft>('settings:new-key', EMPTY);
  const form = useFormErrors(LABELS);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof KeyDraft>(key: K, value: KeyDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    form.clear(key === 'all' ? 'scopes' : key);
  };
  const toggle = (scope: string, on: boolean) =>
    set('scopes', on ? [...draft.scopes, scope] : draft.scopes.filter((s) => s !== scope));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const scopes = draft.all ? ['*'] : draft.scopes;
    if (!form.check(scopes.length === 0 ? { scopes: 'Choose at least one scope, or all scopes' } : {})) return;
    setBusy(true);
    try {
      const created = await createKey({
        name: draft.name,
        scopes: scopes as Parameters<typeof createKey>[0]['scopes'],
        expiresInDays: draft.expires ? Number(draft.expires) : null,
      });
      clearDraft();
      onCreated(created);
    } catch (err) {
      form.fail(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="subform" ref={form.formRef} onSubmit={submit} noValidate aria-label="Create an API key">
      <h3>Create a key</h3>
      <div className="form-grid">
        <Field label="Name" error={form.errors.name} hint="What the key is for, e.g. the agent that uses it.">
          <input value={draft.name} maxLength={100} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field label="Expires" error={form.errors.expiresInDays}>
          <select value={draft.expires} onChange={(e) => set('expires', e.target.value)}>
            <option value="">Never</option>
            <option value="7">In 7 days</option>
            <option value="30">In 30 days</option>
            <option value="90">In 90 days</option>
            <option value="365">In a year</option>
          </select>
        </Field>
        <fieldset
          className={`span-2 scope-picker${form.errors.scopes ? ' field-invalid' : ''}`}
          aria-invalid={form.errors.scopes ? true : undefined}
          aria-describedby={form.errors.scopes ? 'key-scopes-error' : undefined}
          tabIndex={form.errors.scopes ? -1 : undefined}
        >
          <legend className="label-text">Scopes</legend>
          <label className="checkbox scope-all">
            <input type="checkbox" checked={draft.all} onChange={(e) => set('all', e.target.checked)} />
            All scopes (<code>*</code>): everything this organization can do
          </label>
          <div className="scope-grid">
            {SCOPES.map((scope) => (
              <label key={scope} className="checkbox" title={SCOPE_HINTS[scope]}>
                <input
                  type="checkbox"
                  disabled={draft.all}
                  checked={draft.all || draft.scopes.includes(scope)}
                  onChange={(e) => toggle(scope, e.target.checked)}
                />
                <span>
                  <code>{scope}</code> <span className="scope-hint">{SCOPE_HINTS[scope]}</span>
                </span>
              </label>
            ))}
          </div>
          {form.errors.scopes ? (
            <p className="field-error" id="key-scopes-error">
              {form.errors.scopes}
            </p>
          ) : null}
        </fieldset>
      </div>
      {form.failure ? <ApiErrorBanner title="The key was not created" error={form.failure} /> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}
