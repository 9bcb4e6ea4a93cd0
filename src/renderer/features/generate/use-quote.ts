// The price of a generate body before it is sent: POST /api/templates/:id/quote, asked again (debounced) when
// the body changes, and when the balance does (a request just charged): "Balance after" is the real balance's.
// Nothing is charged or stored by a quote.
import { useEffect, useRef, useState } from 'react';
import { quoteTemplate, type GenerateBody, type Quote } from '../../lib/studio-api';
import { useAppStore } from '../../stores/app-store';

export type QuoteState =
  | { status: 'idle' }
  | { status: 'loading'; key: string }
  | { status: 'ready'; key: string; quote: Quote }
  | { status: 'error'; key: string; error: unknown };

export function useQuote(templateId: string, body: GenerateBody | null, delayMs = 300): QuoteState {
  const key = body ? JSON.stringify(body) : null;
  const [state, setState] = useState<QuoteState>({ status: 'idle' });
  const seq = useRef(0);
  const balance = useAppStore((s) => s.balance);
  useEffect(() => {
    if (!key || !body) {
      setState({ status: 'idle' });
      return;
    }
    const mine = ++seq.current;
    // Asked again for the same body (the balance moved): the price shown stays until the new one is in.
    setState((s) => (s.status === 'ready' && s.key === key ? s : { status: 'loading', key }));
    const timer = setTimeout(() => {
      quoteTemplate(templateId, body).then(
        (quote) => mine === seq.current && setState({ status: 'ready', key, quote }),
        (error: unknown) => mine === seq.current && setState({ status: 'error', key, error }),
      );
    }, delayMs);
    return () => clearTimeout(timer);
    // `key` stands for the body; `balance` is what "Balance after" is worked out from.
  }, [templateId, key, delayMs, balance]);
  return state;
}

/** The quote, only when it is the one of this exact body (a stale price is never shown as current). */
export const currentQuote = (s: QuoteState, body: GenerateBody | null): Quote | null =>
  s.status === 'ready' && body && s.key === JSON.stringify(body) ? s.quote : null;
