// What the forms of Settings → Backup share: the passphrase typed twice. (The outcome of an action, said where the
// action was, is components/ActionOutcome.tsx.)
import { Field } from '../../components/Field';

/** The shortest backup passphrase the app takes (as `backup create` does). */
export const MIN_PASSPHRASE = 12;

/** The passphrase and its repetition: the error each field shows, or nulls when both are fine. */
export function passphraseErrors(
  passphrase: string,
  again: string,
): { passphrase: string | null; again: string | null } {
  const length = [...passphrase].length;
  return {
    passphrase: length < MIN_PASSPHRASE ? `At least ${MIN_PASSPHRASE} characters (this one has ${length}).` : null,
    again: again !== passphrase ? 'The two passphrases differ.' : null,
  };
}

export function PassphraseFields(props: {
  passphrase: string;
  again: string;
  onPassphrase(value: string): void;
  onAgain(value: string): void;
  /** The errors to show (none until the person tried to submit). */
  errors: { passphrase: string | null; again: string | null };
  required: boolean;
  hint: string;
}) {
  return (
    <div className="form-grid">
      <Field label="Passphrase" required={props.required} error={props.errors.passphrase} hint={props.hint}>
        <input
          type="password"
          value={props.passphrase}
          onChange={(e) => props.onPassphrase(e.target.value)}
          autoComplete="new-password"
        />
      </Field>
      <Field label="Passphrase again" required={props.required} error={props.errors.again}>
        <input
          type="password"
          value={props.again}
          onChange={(e) => props.onAgain(e.target.value)}
          autoComplete="new-password"
        />
      </Field>
    </div>
  );
}
