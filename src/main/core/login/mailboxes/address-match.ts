/**
 * Whether mail to `address` belongs to a mailbox registered for `pattern` (both lower-cased by the caller's
 * schema; compared lower-cased again here). `ada@example.com` takes `ada@…` and its plus-addresses
 * (`ada+shop@…`), `*@example.com` every address of that domain (not its subdomains).
 */
export function addressMatches(pattern: string, address: string): boolean {
  const p = splitAddress(pattern);
  const a = splitAddress(address);
  if (!p || !a || p.domain !== a.domain) return false;
  if (p.local === '*') return true;
  if (p.local === a.local) return true;
  const plus = a.local.indexOf('+');
  return plus > 0 && a.local.slice(0, plus) === p.local;
}

function splitAddress(value: string): { local: string; domain: string } | null {
  const clean = value.trim().toLowerCase();
  const at = clean.lastIndexOf('@');
  if (at <= 0 || at === clean.length - 1) return null;
  return { local: clean.slice(0, at), domain: clean.slice(at + 1).replace(/\.$/, '') };
}
