import { useState, type FormEvent } from 'react';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { useDraft } from '../../lib/use-draft';
import { useFormErrors } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';

const LABELS = {
  name: 'Name',
  addresses: 'Addresses',
  'imap.host': 'IMAP server',
  'imap.port': 'Port',
  'imap.secure': 'TLS',
  'imap.allowInsecureAuth': 'Log in without TLS',
  'imap.username': 'Username',
  'imap.password': 'Password',
};

interface MailboxDraft {
  name: string;
  addresses: string;
  host: string;
  port: string;
  secure: boolean;
  allowInsecureAuth: boolean;
  username: string;
  password: string;
}

const EMPTY: MailboxDraft = {
  name: '',
  addresses: '',
  host: '',
  port: '993',
  secure: true,
  allowInsecureAuth: false,
  username: '',
  password: '',
};

const splitAddresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

export function MailboxForm() {
  const addMailbox = useAppStore((s) => s.addMailbox);
  const [draft, setDraft, clearDraft] = useDraft<MailboxDraft>('settings:new-mailbox', EMPTY);
  const form = useFormErrors(LABELS);
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const set = <K extends keyof MailboxDraft>(key: K, value: MailboxDraft[K], field: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    form.clear(field);
    setAdded(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const addresses = splitAddresses(draft.addresses);
    if (addresses.length === 0) found.addresses = 'Give at least one address, e.g. ada@example.com';
    if (!draft.host.trim()) found['imap.host'] = 'Required';
    const port = Number(draft.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) found['imap.port'] = 'A port from 1 to 65535';
    if (!draft.username) found['imap.username'] = 'Required';
    if (!draft.password) found['imap.password'] = 'Required';
    if (!form.check(found)) return;
    setBusy(true);
    try {
      const created = await addMailbox({
        ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
        addresses,
        imap: {
          host: draft.host.trim(),
          port,
          secure: draft.secure,
          // Only meaningful without TLS from the first byte; a hidden, stale tick is never sent.
          allowInsecureAuth: !draft.secure && draft.allowInsecureAuth,
          username: draft.username,
          password: draft.password,
        },
      });
      clearDraft();
      setAdded(created.name);
    } catch (err) {
      form.fail(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="subform" ref={form.formRef} onSubmit={submit} noValidate aria-label="Add a mailbox">
      <h3>Add a mailbox</h3>
      <div className="form-grid">
        <Field label="Name" error={form.errors.name} hint="Optional; shown in errors and login traces.">
          <input value={draft.name} maxLength={100} onChange={(e) => set('name', e.target.value, 'name')} />
        </Field>
        <Field
          label="Addresses"
          required
          error={form.errors.addresses}
          hint="Whose mail arrives here, separated by commas: ada@example.com, or *@example.com for a whole domain."
        >
          <input
            value={draft.addresses}
            onChange={(e) => set('addresses', e.target.value, 'addresses')}
            placeholder="ada@example.com"
            spellCheck={false}
          />
        </Field>
        <Field label="IMAP server" required error={form.errors['imap.host']}>
          <input
            value={draft.host}
            onChange={(e) => set('host', e.target.value, 'imap.host')}
            placeholder="imap.example.com"
            spellCheck={false}
          />
        </Field>
        <div className="form-row-2">
          <Field label="Port" required error={form.errors['imap.port']}>
            <input
              type="number"
              min={1}
              max={65535}
              value={draft.port}
              onChange={(e) => {
                const port = e.target.value;
                // 993 is IMAP over TLS, 143 plain IMAP (STARTTLS): follow the usual pairing.
                setDraft((d) => ({ ...d, port, secure: port === '993' ? true : port === '143' ? false : d.secure }));
                form.clear('imap.port');
              }}
            />
          </Field>
          <div className="field checkbox-field">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.secure}
                onChange={(e) => set('secure', e.target.checked, 'imap.secure')}
              />
              TLS from the first byte
            </label>
          </div>
        </div>
        {draft.secure ? null : (
          // The whole row, under the TLS box it qualifies.
          <div className="field checkbox-field span-2">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.allowInsecureAuth}
                aria-describedby="mailbox-insecure-hint"
                onChange={(e) => set('allowInsecureAuth', e.target.checked, 'imap.allowInsecureAuth')}
              />
              Log in without TLS when the server offers no STARTTLS
            </label>
            <p className="field-hint" id="mailbox-insecure-hint">
              Without it, the password is sent only after STARTTLS. With it, a server without STARTTLS (or someone in
              between) gets the password in clear. Not needed for this computer (localhost).
            </p>
          </div>
        )}
        <Field label="Username" required error={form.errors['imap.username']}>
          <input
            value={draft.username}
            onChange={(e) => set('username', e.target.value, 'imap.username')}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label="Password" required error={form.errors['imap.password']} hint="Kept in the OS keychain.">
          <input
            type="password"
            value={draft.password}
            onChange={(e) => set('password', e.target.value, 'imap.password')}
            autoComplete="off"
          />
        </Field>
      </div>
      {form.unplaced.length ? (
        <ul className="issue-list error-text">
          {form.unplaced.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
      {form.failure ? <ApiErrorBanner title="The mailbox was not added" error={form.failure} /> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Checking the server…' : 'Add mailbox'}
        </button>
        {added ? (
          <span className="muted" role="status">
            Added “{added}”: connected and logged in.
          </span>
        ) : null}
      </div>
    </form>
  );
}
