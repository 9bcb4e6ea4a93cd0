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
