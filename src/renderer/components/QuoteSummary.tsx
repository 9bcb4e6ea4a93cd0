import type { Quote } from '../lib/studio-api';
import { formatSeconds } from '../lib/format';
import { PROVIDER_LABELS } from '../lib/renderer-label';

/** What a request will cost before it is sent: credits, the balance after, and what renders it. */
export function QuoteSummary({ quote, testId = 'quote' }: { quote: Quote; testId?: string }) {
  const by =
    quote.provider === 'local'
      ? 'Local draft (offline motion graphics)'
      : `${PROVIDER_LABELS[quote.provider] ?? quote.provider} · ${quote.model}`;
  return (
    <dl className="quote stats stats-grid" data-testid={testId}>
      <div>
        <dt>Costs</dt>
        <dd>
          <strong data-testid="quote-credits">{quote.credits}</strong> credits
          {quote.num_videos > 1 ? (
            <span className="muted">
              {' '}
              ({quote.num_videos} × {quote.per_video})
            </span>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>Balance after</dt>
        <dd data-testid="quote-balance-after">{quote.balance_after}</dd>
      </div>
      <div>
        <dt>Rendered by</dt>
        <dd>{by}</dd>
      </div>
      <div>
        <dt>Video</dt>
        <dd>
          {quote.resolution} · {formatSeconds(quote.duration_sec)}
          {quote.latency_estimate_sec ? ` · about ${formatSeconds(quote.latency_estimate_sec.typical)}` : ''}
        </dd>
      </div>
    </dl>
  );
}
