import { useEffect, useRef, useState } from 'react';
import type { SavedLogin } from '../../../shared/credentials.schema.js';
import type { ChannelArgs } from '../../../shared/ipc-contract.js';
import { SECRET_ON_CLIPBOARD_MS, SECRET_REVEALED_MS } from '../../../shared/secret-clipboard.js';
import { errorMessage, invoke } from '../../lib/api';
import { formatTimeSeconds } from '../../lib/format';
import { SECRET_NAMES } from './saved-login-format';

type Secret = ChannelArgs<'credentials:reveal'>['secret'];

/** The secrets the saved login holds, one per row: additional fields each by their name. */
function secretRows(saved: SavedLogin): { key: string; name: string; secret: Secret }[] {
  const rows: { key: string; name: string; secret: Secret }[] = [];
  for (const s of saved.secrets) {
    if (s === 'additionalFields') {
      for (const field of saved.additionalFieldNames)
        rows.push({ key: `field:${field}`, name: `Field “${field}”`, secret: { additionalField: field } });
    } else rows.push({ key: s, name: SECRET_NAMES[s], secret: s });
  }
  return rows;
}

/** The status line: the last copy or reveal that went wrong, or the last copy (and when). */
interface Said {
  key: string;
  text: string;
  bad: boolean;
  copied?: { name: string; at: number };
}

/** What is said of a copy: times of day, which stay true however long the line is left on screen. */
function copiedText(name: string, at: number, over: boolean): string {
  const until = formatTimeSeconds(at + SECRET_ON_CLIPBOARD_MS);
  return over
    ? `${name} copied at ${formatTimeSeconds(at)}; taken off the clipboard at ${until} (unless something else was copied since).`
    : `${name} copied at ${formatTimeSeconds(at)}; the app takes it off the clipboard at ${until}.`;
}

/**
 * Reveal and Copy per secret. A revealed value lives in this component only (never the store) and goes away
 * when hidden, after SECRET_REVEALED_MS, when the person leaves the page (the component unmounts) or the window is
 * hidden. Copy goes straight to the OS clipboard through the app: the value never enters the page.
 */
export function SecretActions({ saved }: { saved: SavedLogin }) {
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const hideTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const hideAll = () => {
      if (document.visibilityState === 'hidden') setRevealed({});
    };
    document.addEventListener('visibilitychange', hideAll);
    return () => document.removeEventListener('visibilitychange', hideAll);
  }, []);
  // Another saved login: nothing of the last one stays shown.
  useEffect(() => {
    setRevealed({});
    setSaid(null);
  }, [saved.id]);
  useEffect(() => {
    const timers = hideTimers.current;
    return () => timers.forEach((t) => clearTimeout(t));
  }, []);
  // Once the clipboard's time is over, the line says it in the past tense.
  const copied = said?.copied;
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(
      () => setSaid((s) => (s?.copied === copied ? { ...s, text: copiedText(copied.name, copied.at, true) } : s)),
      Math.max(0, copied.at + SECRET_ON_CLIPBOARD_MS - Date.now()),
    );
    return () => clearTimeout(t);
  }, [copied]);

  const rows = secretRows(saved);
  const revealedNote = Object.keys(revealed).length
    ? `Shown values are hidden again ${SECRET_REVEALED_MS / 1000} s after Reveal.`
    : '';
  if (rows.length === 0) return <p className="muted">This saved login holds no secret.</p>;

  const reveal = async (key: string, secret: Secret) => {
    setBusy(key);
    setSaid(null);
    try {
      const { value } = await invoke('credentials:reveal', { id: saved.id, secret });
      setRevealed((r) => ({ ...r, [key]: value }));
      clearTimeout(hideTimers.current.get(key));
      hideTimers.current.set(
        key,
        setTimeout(() => hide(key), SECRET_REVEALED_MS),
      );
    } catch (err) {
      setSaid({ key, text: `Not revealed: ${errorMessage(err)}`, bad: true });
    } finally {
      setBusy(null);
    }
  };
  const hide = (key: string) => {
    clearTimeout(hideTimers.current.get(key));
    hideTimers.current.delete(key);
    setRevealed((r) => {
      const { [key]: _gone, ...rest } = r;
      return rest;
    });
  };
  const copy = async (key: string, name: string, secret: Secret) => {
    setBusy(key);
    setSaid(null);
    try {
      await invoke('credentials:copySecret', { id: saved.id, secret });
      const at = Date.now();
      setSaid({ key, text: copiedText(name, at, false), bad: false, copied: { name, at } });
    } catch (err) {
      setSaid({ key, text: `Not copied: ${errorMessage(err)}`, bad: true });
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <ul className="secret-list" aria-label="Secrets">
        {rows.map(({ key, name, secret }) => {
          const value = revealed[key];
          const lower = name.charAt(0).toLowerCase() + name.slice(1);
          return (
            <li key={key} className="secret-item" data-testid="secret-row" data-secret={key}>
              <span className="secret-name">{name}</span>
              <span className="secret-shown">
                {value !== undefined ? (
                  <code className="secret-value" data-testid="revealed-value">
                    {value}
                  </code>
                ) : (
                  <span className="muted">Hidden</span>
                )}
              </span>
              <span className="row-actions">
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={value !== undefined ? `Hide ${lower}` : `Reveal ${lower}`}
                  disabled={busy === key}
                  onClick={() => (value !== undefined ? hide(key) : void reveal(key, secret))}
                >
                  {value !== undefined ? 'Hide' : 'Reveal'}
                </button>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={`Copy ${lower}`}
                  disabled={busy === key}
                  onClick={() => void copy(key, name, secret)}
                >
                  Copy
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <p className={said?.bad ? 'error-text' : 'muted'} role="status" data-testid="secret-status">
        {said?.text ?? ''}
      </p>
      {revealedNote ? <p className="muted">{revealedNote}</p> : null}
    </>
  );
}
