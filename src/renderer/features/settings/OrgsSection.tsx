import { useState, type FormEvent } from 'react';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { EmptyState, ListStatus } from '../../components/StatusViews';
import { formatDate } from '../../lib/format';
import { useDraft } from '../../lib/use-draft';
import { useFormErrors } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';
import { SettingsSection } from './SettingsSection';

const KIND_LABELS: Record<string, string> = { grant: 'Added', charge: 'Charged', refund: 'Refunded' };

export function OrgsSection() {
  const orgs = useAppStore((s) => s.orgs);
  const orgId = useAppStore((s) => s.adminOrgId);
  const selectOrg = useAppStore((s) => s.selectAdminOrg);
  const loadOrgs = useAppStore((s) => s.loadOrgs);
  const credits = useAppStore((s) => s.orgCredits);
  const selected = orgs.data.find((o) => o.id === orgId) ?? null;

  return (
    <SettingsSection
      id="orgs"
      title="Organizations and credits"
      description="Everything (keys, sessions, mailboxes, templates, generations, credits) belongs to one organization. This window works in the organization marked “this window”."
    >
      <ListStatus
        list={orgs}
        noun="organizations"
        onRetry={() => void loadOrgs()}
        empty={<EmptyState title="No organizations" />}
      />
      {orgs.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label="Organizations">
            <thead>
              <tr>
                <th scope="col">Organization</th>
                <th scope="col" className="num">
                  Credits
                </th>
                <th scope="col" className="num">
                  Active keys
                </th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orgs.data.map((o) => (
                <tr key={o.id} className={o.id === orgId ? 'row-selected' : undefined} data-testid="org-row">
                  <td>
                    <div className="cell-title">
                      {o.name} {o.desktop ? <span className="badge badge-accent">this window</span> : null}
                    </div>
                    <div className="cell-sub mono">{o.id}</div>
                  </td>
                  <td className="num" data-testid="org-balance">
                    {o.balance}
                  </td>
                  <td className="num">{o.active_keys}</td>
                  <td>{formatDate(o.created_at)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      aria-pressed={o.id === orgId}
                      aria-label={`Show ${o.name}`}
                      onClick={() => void selectOrg(o.id)}
                    >
                      {o.id === orgId ? 'Shown' : 'Show'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {selected ? (
        <div className="org-detail" aria-label={`Credits of ${selected.name}`} role="region">
          <h3>Credits of {selected.name}</h3>
          <GrantCreditsForm key={selected.id} />
          {credits.data && credits.data.ledger.length > 0 ? (
            <div className="table-wrap">
              <table className="table table-compact" aria-label="Credit ledger">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">What</th>
                    <th scope="col" className="num">
                      Amount
                    </th>
                    <th scope="col">For</th>
                  </tr>
                </thead>
                <tbody>
                  {credits.data.ledger.map((entry, i) => (
                    <tr key={`${entry.created_at}-${i}`}>
                      <td>{formatDate(entry.created_at)}</td>
                      <td>{KIND_LABELS[entry.kind] ?? entry.kind}</td>
                      <td className={`num ${entry.amount < 0 ? 'amount-negative' : 'amount-positive'}`}>
                        {entry.amount > 0 ? `+${entry.amount}` : entry.amount}
                      </td>
                      <td className="mono cell-sub">{entry.ref ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : credits.status === 'ready' ? (
            <p className="muted">No credit movements yet.</p>
          ) : null}
        </div>
      ) : null}
      <NewOrgForm />
    </SettingsSection>
  );
}

function GrantCreditsForm() {
  const grant = useAppStore((s) => s.grantCredits);
  const [amount, setAmount, clearAmount] = useDraft('settings:grant-amount', '');
  const form = useFormErrors({ amount: 'Credits to add' });
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = Number(amount);
    if (
      !form.check(
        amount.trim() === '' || !Number.isInteger(n) || n < 1 ? { amount: 'Enter a whole number of at least 1' } : {},
      )
    )
      return;
    setBusy(true);
    try {
      await grant(n);
      clearAmount();
    } catch (err) {
      form.fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form" ref={form.formRef} onSubmit={submit} noValidate aria-label="Add credits">
      <Field label="Credits to add" error={form.errors.amount}>
        <input
          type="number"
          min={1}
          step={1}
          value={amount}
          onChange={(e) => {
            setAmount(e.target.value);
            form.clear('amount');
          }}
        />
      </Field>
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        {busy ? 'Adding…' : 'Add credits'}
      </button>
      {form.failure ? <ApiErrorBanner title="No credits were added" error={form.failure} /> : null}
    </form>
  );
}

function NewOrgForm() {
  const createOrg = useAppStore((s) => s.createOrg);
  const [name, setName, clearName] = useDraft('settings:new-org', '');
  const form = useFormErrors({ name: 'Name' });
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.check(name.trim() === '' ? { name: 'Required' } : {})) return;
    setBusy(true);
    try {
      await createOrg(name);
      clearName();
    } catch (err) {
      form.fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form" ref={form.formRef} onSubmit={submit} noValidate aria-label="Create an organization">
      <Field label="New organization" error={form.errors.name} hint="Its keys, data and credits are kept apart.">
        <input
          value={name}
          maxLength={64}
          onChange={(e) => {
            setName(e.target.value);
            form.clear('name');
          }}
        />
      </Field>
      <button type="submit" className="btn btn-secondary" disabled={busy}>
        {busy ? 'Creating…' : 'Create organization'}
      </button>
      {form.failure ? <ApiErrorBanner title="The organization was not created" error={form.failure} /> : null}
    </form>
  );
}
