import { ConfirmButton } from '../../components/ConfirmButton';
import { DataList } from '../../components/DataList';
import { EmptyState, ErrorBanner } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { useItemAction } from '../../lib/use-item-action';
import { useAppStore } from '../../stores/app-store';
import { MailboxForm } from './MailboxForm';
import { SettingsSection } from './SettingsSection';

export function MailboxesSection() {
  const mailboxes = useAppStore((s) => s.mailboxes);
  const checks = useAppStore((s) => s.mailboxChecks);
  const loadMailboxes = useAppStore((s) => s.loadMailboxes);
  const testMailbox = useAppStore((s) => s.testMailbox);
  const removeMailbox = useAppStore((s) => s.removeMailbox);
  const removal = useItemAction(removeMailbox);

  return (
    <SettingsSection
      id="mailboxes"
      title="Mailboxes"
      description="Logins with an emailed code or sign-in link (otp_email, magic_link) read it from these IMAP mailboxes of this window’s organization. Passwords go to the OS keychain and are never shown again."
    >
      {removal.error ? <ErrorBanner title="The mailbox was not removed" message={errorMessage(removal.error)} /> : null}
      <DataList
        label="Mailboxes"
        className="mailbox-list"
        items={mailboxes.data}
        itemKey={(m) => m.id}
        itemClassName="mailbox-row"
        itemTestId="mailbox-row"
        load={{ state: mailboxes, noun: 'mailboxes', onRetry: () => void loadMailboxes() }}
        empty={
          <EmptyState title="No mailboxes yet" testId="mailboxes-empty">
            Add the mailbox that receives the sites’ codes and links.
          </EmptyState>
        }
        renderItem={(m) => {
          const check = checks[m.id];
          return (
            <>
              <div className="mailbox-main">
                <div>
                  <div className="cell-title">{m.name}</div>
                  <div className="cell-sub">
                    {m.addresses.join(', ')} · {m.imap.username} at {m.imap.host}:{m.imap.port} (
                    {m.imap.secure
                      ? 'TLS'
                      : m.imap.allowInsecureAuth
                        ? 'STARTTLS when offered, else no TLS'
                        : 'STARTTLS'}
                    )
                  </div>
                </div>
                <div className="row-actions">
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    aria-label={`Test mailbox ${m.name}`}
                    disabled={check?.running}
                    onClick={() => void testMailbox(m.id)}
                  >
                    {check?.running ? 'Testing…' : 'Test'}
                  </button>
                  <ConfirmButton
                    label="Remove"
                    confirmLabel="Remove now"
                    ariaLabel={`Remove mailbox ${m.name}`}
                    busy={removal.busyId === m.id}
                    onConfirm={() => removal.run(m.id)}
                  />
                </div>
              </div>
              {check && !check.running ? (
                <p
                  className={`check-result ${check.result?.ok ? 'check-ok' : 'check-bad'}`}
                  role="status"
                  data-testid="mailbox-check"
                >
                  <span className={`badge badge-${check.result?.ok ? 'success' : 'danger'}`}>
                    {check.result?.ok ? 'Works' : 'Problem'}
                  </span>{' '}
                  {check.result
                    ? `${check.result.message}${check.result.messages !== undefined ? ` (${check.result.messages} messages in INBOX)` : ''} · ${check.result.ms} ms`
                    : check.error}
                </p>
              ) : null}
            </>
          );
        }}
      />
      <MailboxForm />
    </SettingsSection>
  );
}
