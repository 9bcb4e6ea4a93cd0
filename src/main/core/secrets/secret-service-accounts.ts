// The account names of a keytar service in the Linux Secret Service, read over D-Bus without loading a secret.
//
// Why not keytar.findCredentials: it searches the service's items with their secrets loaded and then calls
// strdup(secret_value_get_text(secret)) on each; an item another thread or process deletes between the search and
// the load has no secret, and strdup(NULL) kills the whole process with SIGSEGV (libsecret first prints
// "secret_value_get_text: assertion 'value' failed"). The app, the CLI and a second data dir's server share the
// keychain, so a listing while any of them deletes a secret could take the app down. A listing needs only the
// "account" attribute, which the Secret Service gives without unlocking or loading anything; an item gone by the
// time its attributes are asked for is simply not listed.
import type { MessageBus } from 'dbus-next';

const DESTINATION = 'org.freedesktop.secrets';
/** keytar's libsecret schema: its items carry this as `xdg:schema` next to `service` and `account`. */
const KEYTAR_SCHEMA = 'org.freedesktop.Secret.Generic';
/** A Secret Service that does not answer within this long is reported unavailable, as keytar's refusal would be. */
const TIMEOUT_MS = 10_000;
/** What the Secret Service (gnome-keyring, KWallet's bridge) answers about an item path that no longer exists. */
const GONE = /UnknownObject|NoSuchObject|UnknownMethod|UnknownInterface/;

export async function secretServiceAccounts(service: string): Promise<string[]> {
  const { default: dbus } = await import('dbus-next');
  const bus = dbus.sessionBus();
  // A bus that cannot connect reports it as an event, not as a rejected call: either ends the listing.
  let fail: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
    bus.on('error', reject);
  });
  const timer = setTimeout(() => fail(new Error('the Secret Service did not answer')), TIMEOUT_MS);
  try {
    return await Promise.race([listAccounts(dbus.Message, bus, service), failed]);
  } finally {
    clearTimeout(timer);
    failed.catch(() => {});
    bus.disconnect();
  }
}

type MessageClass = typeof import('dbus-next').Message;

async function listAccounts(Message: MessageClass, bus: MessageBus, service: string): Promise<string[]> {
  const search = await bus.call(
    new Message({
      destination: DESTINATION,
      path: '/org/freedesktop/secrets',
      interface: 'org.freedesktop.Secret.Service',
      member: 'SearchItems',
      signature: 'a{ss}',
      body: [{ service, 'xdg:schema': KEYTAR_SCHEMA }],
    }),
  );
  const [unlocked, locked] = (search?.body ?? [[], []]) as [string[], string[]];
  const accounts = await Promise.all(
    [...unlocked, ...locked].map(async (path) => {
      try {
        const reply = await bus.call(
          new Message({
            destination: DESTINATION,
            path,
            interface: 'org.freedesktop.DBus.Properties',
            member: 'Get',
            signature: 'ss',
            body: ['org.freedesktop.Secret.Item', 'Attributes'],
          }),
        );
        const attributes = (reply?.body[0] as { value?: Record<string, string> } | undefined)?.value;
        return attributes?.account ?? null;
      } catch (err) {
        // Deleted since the search: not an account any more. Any other refusal fails the listing, as keytar's would.
        if (GONE.test((err as { type?: string }).type ?? '')) return null;
        throw err;
      }
    }),
  );
  return accounts.filter((a): a is string => a !== null);
}
