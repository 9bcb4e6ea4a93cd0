import { MAX_VIDEOS_PER_REQUEST } from '../../../shared/video.schema.js';
import { Field } from '../../components/Field';
import { MAX_DEADLINE_MINUTES } from './generate-body';

/**
 * Where the results go and how long they may take: the webhook URL and the deadline, for one request and for a CSV
 * batch alike; the number of videos only for one request (a batch makes one per row).
 */
export function DeliveryOptions({
  webhookUrl,
  deadlineMinutes,
  count,
  errors,
  onWebhookUrl,
  onDeadlineMinutes,
  onCount,
}: {
  webhookUrl: string;
  deadlineMinutes: string;
  /** Absent for a batch. */
  count?: number;
  errors: Record<string, string>;
  onWebhookUrl: (url: string) => void;
  onDeadlineMinutes: (minutes: string) => void;
  onCount?: (n: number) => void;
}) {
  return (
    <details className="advanced">
      <summary>Delivery options</summary>
      <div className="form-grid">
        <Field label="Webhook URL" error={errors.__webhook} hint="Receives a POST when each video completes or fails.">
          <input
            type="url"
            value={webhookUrl}
            onChange={(e) => onWebhookUrl(e.target.value)}
            placeholder="https://example.com/hooks/video"
          />
        </Field>
        {count !== undefined && onCount ? (
          <Field label="Number of videos">
            <input
              type="number"
              min={1}
              max={MAX_VIDEOS_PER_REQUEST}
              value={count}
              onChange={(e) => onCount(Math.max(1, Math.min(MAX_VIDEOS_PER_REQUEST, Number(e.target.value) || 1)))}
            />
          </Field>
        ) : null}
        <Field
          label="Deadline in minutes (optional)"
          error={errors.__deadline}
          hint="A video not started by then is canceled and refunded in full; one still rendering then fails and is refunded."
        >
          <input
            type="text"
            inputMode="numeric"
            value={deadlineMinutes}
            onChange={(e) => onDeadlineMinutes(e.target.value)}
            placeholder={`1 to ${MAX_DEADLINE_MINUTES}`}
          />
        </Field>
      </div>
    </details>
  );
}
