import { useEffect, useState, type FormEvent } from 'react';
import type { SavedLogin } from '../../../shared/credentials.schema.js';
import { secretsMoveTo } from '../../../shared/saved-login-move.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { ApiError } from '../../lib/api';
import { useDraft } from '../../lib/use-draft';
import { useFormErrors } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';
import { AdditionalFieldsEditor } from './AdditionalFieldsEditor';
import { MailboxSelect } from './MailboxSelect';
import { MoveConfirm } from './MoveConfirm';
import { OriginsEditor } from './OriginsEditor';
import { originOf } from './saved-login-format';
import {
  checkForm,
  createBody,
  FORM_LABELS,
  initialDraft,
  initialSecrets,
  neededSecrets,
  updateBody,
  type SavedLoginDraft,
  type SecretsState,
  type TextSecret,
} from './saved-login-form-state';
import { SecretField } from './SecretField';
import { SharingPicker } from './SharingPicker';
import { TotpField } from './TotpField';

/** Refusals about one field that the API does not send as a validation error: shown on that field too. */
const FIELD_OF_CODE: Record<string, string> = { CREDENTIAL_EXISTS: 'label', LOGIN_METHOD_NOT_AVAILABLE: 'loginMethod' };

/** Add a saved login (`saved` null) or edit one. Secrets are never pre-filled; see saved-login-form-state.ts. */
export function SavedLoginForm({
  saved,
  onDone,
  onCancel,
}: {
  saved: SavedLogin | null;
  onDone: (saved: SavedLogin) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft, clearDraft] = useDraft<SavedLoginDraft>(`saved-logins:form:${saved?.id ?? 'new'}`, () =>
    initialDraft(saved),
  );
  const [secrets, setSecrets] = useState<SecretsState>(() => initialSecrets(saved));
  const methods = useAppStore((s) => s.loginMethods);
  const loadMethods = useAppStore((s) => s.loadLoginMethods);
  const keys = useAppStore((s) => s.shareKeys);
  const loadKeys = useAppStore((s) => s.loadShareKeys);
  const create = useAppStore((s) => s.createSavedLogin);
  const update = useAppStore((s) => s.updateSavedLogin);
  const form = useFormErrors(FORM_LABELS);
  const [busy, setBusy] = useState(false);
  // Where the edit would let the secrets be typed that they could not be before: the person confirms that first.
  const [confirming, setConfirming] = useState(false);
  const movesTo = saved ? movedPlaces(saved, updateBody(saved, draft, secrets)) : [];
  const asking = confirming && movesTo.length > 0;

  useEffect(() => {
    if (methods.status === 'idle') void loadMethods();
    if (keys.status === 'idle') void loadKeys();
  }, [methods.status, keys.status, loadMethods, loadKeys]);

  const method = methods.data.find((m) => m.id === draft.loginMethod);
  const needs = neededSecrets(method);
  const set = <K extends keyof SavedLoginDraft>(key: K, value: SavedLoginDraft[K], field: string = key) => {
    setDraft((d) => ({ ...d, [key]: value }));
    form.clear(field);
  };
  const setSecret = (name: TextSecret, value: string) => {
    setSecrets((s) => ({ ...s, values: { ...s.values, [name]: value } }));
    form.clear(name);
  };
  const setRemoved = (name: TextSecret | 'additionalFields', removed: boolean) => {
    setSecrets((s) => {
      const { [name]: _was, ...rest } = s.removed;
      return { ...s, removed: removed ? { ...rest, [name]: true } : rest };
    });
    form.clear(name);
  };
  const secretProps = (name: TextSecret) => ({
    value: secrets.values[name],
    onChange: (v: string) => setSecret(name, v),
    saved: !!saved?.secrets.includes(name),
    removed: !!secrets.removed[name],
    onRemovedChange: (r: boolean) => setRemoved(name, r),
    error: form.errors[name],
  });

  const save = async (confirmedMove: boolean) => {
    setBusy(true);
    try {
      const result = saved
        ? await update(saved.id, updateBody(saved, draft, secrets), { confirmedMove })
        : await create(createBody(draft, secrets));
      clearDraft();
      onDone(result);
    } catch (err) {
      setConfirming(false);
      const field = err instanceof ApiError ? FIELD_OF_CODE[err.code] : undefined;
      form.fail(field && err instanceof ApiError ? new ApiError('INVALID_REQUEST', err.message, { field }) : err);
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.check(checkForm(draft, secrets, saved, method))) return;
    // A move is saved only from the confirmation's own button.
    if (movesTo.length) setConfirming(true);
    else await save(false);
  };

  const title = saved ? `Edit “${saved.label}”` : 'Add a saved login';
  return (
    <section className="card" aria-labelledby="saved-login-form-title">
      <div className="card-header">
        <h2 id="saved-login-form-title" tabIndex={-1} data-view-heading>
          {title}
        </h2>
      </div>
      <form
        className="form-grid saved-login-form"
        ref={form.formRef}
        onSubmit={submit}
        noValidate
        aria-label={title}
        data-primary-form
      >
        <Field label="Label" required error={form.errors.label} hint="Agents log in with it by this name.">
          <input
            value={draft.label}
            maxLength={120}
            onChange={(e) => set('label', e.target.value)}
            spellCheck={false}
          />
        </Field>
        <Field
          label="Login method"
          error={form.errors.loginMethod}
          hint={
            methods.status === 'error'
              ? `The list of methods could not be read (${methods.error}).`
              : method?.description
          }
        >
          <select value={draft.loginMethod} onChange={(e) => set('loginMethod', e.target.value)}>
            {methods.data.some((m) => m.id === draft.loginMethod) ? null : (
              <option value={draft.loginMethod}>{draft.loginMethod}</option>
            )}
            {methods.data.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </Field>
        <div className="span-2">
          <Field label="Login page URL" required error={form.errors.loginUrl} hint="The page with the sign-in form.">
            <input
              type="url"
              value={draft.loginUrl}
              onChange={(e) => set('loginUrl', e.target.value)}
              placeholder="https://example.com/login"
              spellCheck={false}
              autoComplete="off"
            />
          </Field>
        </div>
        <Field label="Username" error={form.errors.username} hint="Or the email address the site knows you by.">
          <input
            value={draft.username}
            onChange={(e) => set('username', e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <SecretField
          label="Password"
          required={needs.password && !saved?.secrets.includes('password')}
          testId="password-input"
          {...secretProps('password')}
        />
        <div className="span-2">
          <TotpField required={needs.totpSecret} {...secretProps('totpSecret')} />
        </div>
        <MailboxSelect value={draft.mailboxId} onChange={(id) => set('mailboxId', id)} error={form.errors.mailboxId} />
        <Field
          label="Phone number"
          required={needs.phone}
          error={form.errors.phone}
          hint="For text-message codes (otp_sms): with the country code, e.g. +15550100."
        >
          <input type="tel" value={draft.phone} onChange={(e) => set('phone', e.target.value)} autoComplete="off" />
        </Field>
        <OriginsEditor
          origins={draft.origins}
          onChange={(origins) => set('origins', origins)}
          defaultOrigin={originOf(draft.loginUrl)}
          oauth={draft.loginMethod.startsWith('oauth_')}
          error={form.errors.origins}
        />
        <AdditionalFieldsEditor
          rows={secrets.fields}
          onChange={(fields) => {
            setSecrets((s) => ({ ...s, fields }));
            form.clear('additionalFields');
          }}
          savedNames={saved?.additionalFieldNames ?? []}
          removed={!!secrets.removed.additionalFields}
          onRemovedChange={(r) => setRemoved('additionalFields', r)}
          error={form.errors.additionalFields}
        />
        <div className="span-2">
          <SecretField
            label="Notes"
            multiline
            maskable={false}
            hint="Kept as a secret: recovery codes, hints for whoever set it up."
            {...secretProps('notes')}
          />
        </div>
        <SharingPicker
          share={draft.share}
          keyIds={draft.keyIds}
          keys={keys}
          onRetry={() => void loadKeys()}
          onChange={(share, keyIds) => {
            setDraft((d) => ({ ...d, share, keyIds }));
            form.clear('shareWith');
          }}
          error={form.errors.shareWith}
        />
        {form.unplaced.length ? (
          <ul className="issue-list error-text span-2">
            {form.unplaced.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : null}
        {form.failure ? (
          <div className="span-2">
            <ApiErrorBanner title="The saved login was not saved" error={form.failure} />
          </div>
        ) : null}
        {asking && saved ? (
          <MoveConfirm
            label={saved.label}
            places={movesTo}
            busy={busy}
            onConfirm={() => void save(true)}
            onCancel={() => {
              setConfirming(false);
              // Back on the Save button the person pressed, not at the top of the page.
              setTimeout(() => form.formRef.current?.querySelector<HTMLElement>('[type="submit"]')?.focus(), 0);
            }}
          />
        ) : (
          <div className="form-actions span-2">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={busy}
              aria-keyshortcuts="Control+Enter Meta+Enter"
            >
              {busy ? 'Saving…' : saved ? 'Save changes' : 'Save login'}
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => {
                clearDraft();
                onCancel();
              }}
            >
              Cancel
            </button>
            <span className="muted">Secrets go to the OS keychain; no one can read them back through the API.</span>
          </div>
        )}
      </form>
    </section>
  );
}

/** The places an edit lets the secrets go that they could not before (origins as the server will store them). */
function movedPlaces(saved: SavedLogin, body: ReturnType<typeof updateBody>): string[] {
  const origins = (body.origins ?? saved.origins).map((o) => originOf(o) ?? o);
  return secretsMoveTo(saved, { loginUrl: body.loginUrl ?? saved.loginUrl, origins });
}
