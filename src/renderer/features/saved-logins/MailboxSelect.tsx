import { useEffect } from 'react';
import { Field } from '../../components/Field';
import { useAppStore } from '../../stores/app-store';

/** The mailbox a saved login's emailed codes and sign-in links arrive in (mailboxes:list), or none. */
export function MailboxSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (id: string) => void;
  error?: string | null;
}) {
  const mailboxes = useAppStore((s) => s.mailboxes);
  const load = useAppStore((s) => s.loadMailboxes);
  useEffect(() => {
    if (mailboxes.status === 'idle') void load();
  }, [mailboxes.status, load]);
  return (
    <Field
      label="Mailbox"
      error={error}
      hint={
        mailboxes.status === 'error'
          ? `The mailboxes could not be read (${mailboxes.error}).`
          : 'Where emailed codes and sign-in links arrive (add mailboxes in Settings).'
      }
    >
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">None</option>
        {/* A mailbox removed since: still shown as chosen, so saving does not drop it unasked. */}
        {value && !mailboxes.data.some((m) => m.id === value) ? <option value={value}>{value}</option> : null}
        {mailboxes.data.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name} ({m.addresses.join(', ')})
          </option>
        ))}
      </select>
    </Field>
  );
}
