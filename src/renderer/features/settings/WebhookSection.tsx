import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { SettingsSection } from './SettingsSection';

export function WebhookSection() {
  const secret = useAppStore((s) => s.webhookSecret);
  const loadSecret = useAppStore((s) => s.loadWebhookSecret);
  const rotate = useAppStore((s) => s.rotateWebhookSecret);
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [rotated, setRotated] = useState(false);

  const doRotate = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await rotate();
      setRotated(true);
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const value = secret.data?.secret ?? null;
  return (
    <SettingsSection
      id="webhooks"
      title="Webhook signing secret"
      description="Generation callbacks are signed with this secret (Standard Webhooks); receivers verify them with it. It belongs to this window’s organization."
    >
      {secret.status === 'error' ? (
        <ErrorBanner title="Could not read the secret" message={secret.error ?? ''} onRetry={() => void loadSecret()} />
      ) : null}
      {value ? (
        <>
          <div className="secret-row">
            <code className="secret-value" data-testid="webhook-secret">
              {revealed ? value : `${value.slice(0, 6)}${'•'.repeat(24)}`}
            </code>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              aria-pressed={revealed}
              onClick={() => setRevealed((r) => !r)}
            >
              {revealed ? 'Hide' : 'Reveal'}
            </button>
            <CopyButton text={value} label="Copy the webhook secret" />
            <ConfirmButton
              label="Rotate…"
              confirmLabel="Rotate now"
              ariaLabel="Rotate the webhook secret"
              busy={busy}
              onConfirm={doRotate}
            />
          </div>
          <p className="field-hint">
            Made {formatDate(secret.data?.created_at)}.{' '}
            {secret.data?.previous_secret_expires_at
              ? `The previous secret also signs callbacks until ${formatDate(secret.data.previous_secret_expires_at)}.`
              : 'After a rotation the old secret keeps signing for 24 hours, so receivers can switch over.'}
          </p>
          {rotated ? (
            <p className="muted" role="status">
              Rotated: give receivers the new secret within 24 hours.
            </p>
          ) : null}
        </>
      ) : null}
      {problem ? <ErrorBanner title="The secret was not rotated" message={problem} /> : null}
    </SettingsSection>
  );
}
