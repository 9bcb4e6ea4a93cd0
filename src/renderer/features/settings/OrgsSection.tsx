import { useState, type FormEvent } from 'react';
import type { Credits, OrgSummary } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { DataTable, type Column } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { EmptyState } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useItemAction } from '../../lib/use-item-action';
import { useDraft } from '../../lib/use-draft';
import { useFormErrors } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';
import { SettingsSection } from './SettingsSection';

const KIND_LABELS: Record<string, string> = { grant: 'Added', charge: 'Charged', refund: 'Refunded' };

const ORG_COLUMNS: Column<OrgSummary>[] = [
  {
    header: 'Organization',
    cell: (o) => (
      <>
        <div className="cell-title">
          {o.name} {o.desktop ? <span className="badge badge-accent">this window</span> : null}
        </div>
        <div className="cell-sub mono">{o.id}</div>
      </>
    ),
  },
  {
    header: 'Credits',
    className: 'num',
    cellAttributes: () => ({ 'data-testid': 'org-balance' }),
    cell: (o) => o.balance,
  },
  { header: 'Active keys', className: 'num', cell: (o) => o.active_keys },
  { header: 'Browser profiles', cell: (o) => <BrowserProfilesToggle org={o} /> },
  { header: 'Created', cell: (o) => formatDate(o.created_at) },
];

/**
 * Whether the organization's keys (those granted browser-profiles:read) may read the person's browser profiles: the
 * person's choice alone, so it is made here, never through the API (docs/security.md#the-browser-profiles-are-the-persons).
 */
function BrowserProfilesToggle({ org }: { org: OrgSummary }) {
  const setAllowed = useAppStore((s) => s.setOrgBrowserProfiles);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const change = async (allowed: boolean) => {
    setBusy(true);
    setFailed(null);
    try {
      await setAllowed(org.id, allowed);
    } catch (err) {
      setFailed(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <label className="checkbox" data-testid="org-browser-profiles">
        <input
          type="checkbox"
          checked={org.browser_profiles}
          disabled={busy}
          aria-label={`Keys may read your browser profiles: ${org.name}`}
          onChange={(e) => void change(e.target.checked)}
        />
        Keys may read
      </label>
      {failed ? (
        <p className="field-error" role="alert">
          {failed}
        </p>
      ) : null}
    </>
  );
}

type LedgerEntry = Credits['ledger'][number];

const LEDGER_COLUMNS: Column<LedgerEntry>[] = [
  { header: 'When', cell: (entry) => formatDate(entry.created_at) },
  { header: 'What', cell: (entry) => KIND_LABELS[entry.kind] ?? entry.kind },
  {
    header: 'Amount',
    className: 'num',
    cellClassName: (entry) => (entry.amount < 0 ? 'amount-negative' : 'amount-positive'),
    cell: (entry) => (entry.amount > 0 ? `+${entry.amount}` : entry.amount),
  },
  { header: 'For', cellClassName: 'mono cell-sub', cell: (entry) => entry.ref ?? '—' },
];

export function OrgsSection() {
  const orgs = useAppStore((s) => s.orgs);
  const orgId = useAppStore((s) => s.adminOrgId);
  const selectOrg = useAppStore((s) => s.selectAdminOrg);
  const loadOrgs = useAppStore((s) => s.loadOrgs);
  const credits = useAppStore((s) => s.orgCredits);
  const switching = useItemAction(useAppStore((s) => s.switchWindowOrg));
  const selected = orgs.data.find((o) => o.id === orgId) ?? null;

  return (
    <SettingsSection
      id="orgs"
      title="Organizations and credits"
      description="Everything (keys, sessions, mailboxes, templates, generations, credits) belongs to one organization. This window works in the organization marked “this window”. Browser profiles: only the organizations you tick here may have their keys (those granted browser-profiles:read) read your own browsers’ sessions; at first, only the first one."
    >
      <DataTable
        label="Organizations"
        rows={orgs.data}
        rowKey={(o) => o.id}
        rowTestId="org-row"
        isSelected={(o) => o.id === orgId}
        columns={ORG_COLUMNS}
        load={{ state: orgs, noun: 'organizations', onRetry: () => void loadOrgs() }}
        empty={<EmptyState title="No organizations" />}
        actions={(o) => (
          <>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              aria-pressed={o.id === orgId}
              aria-label={`Show credits of ${o.name}`}
              onClick={() => void selectOrg(o.id)}
            >
              {/* The pressed state says which one is shown; the words stay what the button does. */}
              Show credits
            </button>
            {o.desktop ? null : (
              <button
                type="button"
                className="btn btn-secondary btn-small"
                aria-label={`Use in this window: ${o.name}`}
                disabled={switching.busyId !== null}
                onClick={() => void switching.run(o.id)}
              >
                {switching.busyId === o.id ? 'Switching…' : 'Use in this window'}
              </button>
            )}
          </>
        )}
      />
      {switching.busyId ? (
        <p className="field-hint" role="status">
          Restarting the app’s core in the other organization…
        </p>
      ) : null}
      {switching.error ? <ApiErrorBanner title="The window did not switch" error={switching.error} /> : null}
      {selected ? (
        <div className="org-detail" aria-label={`Credits of ${selected.name}`} role="region">
          <h3>Credits of {selected.name}</h3>
          <GrantCreditsForm key={selected.id} />
          <DataTable
            label="Credit ledger"
            compact
            rows={credits.data?.ledger ?? []}
            rowKey={(entry, i) => `${entry.created_at}-${i}`}
            columns={LEDGER_COLUMNS}
            empty={credits.status === 'ready' ? <p className="muted">No credit movements yet.</p> : null}
          />
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
  const [created, setCreated] = useState<{ name: string; balance: number } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setCreated(null);
    if (!form.check(name.trim() === '' ? { name: 'Required' } : {})) return;
    setBusy(true);
    try {
      const org = await createOrg(name);
      setCreated({ name: org.name, balance: org.balance });
      clearName();
    } catch (err) {
      form.fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form" ref={form.formRef} onSubmit={submit} noValidate aria-label="Create an organization">
      <Field
        label="New organization"
        error={form.errors.name}
        hint="Its keys, data and credits are kept apart. It starts with the same starter credits as the first one."
      >
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
      {created ? (
        <p className="muted" role="status">
          Created “{created.name}” with {created.balance} credits. Press Use in this window on its row to work in it.
        </p>
      ) : null}
    </form>
  );
}
