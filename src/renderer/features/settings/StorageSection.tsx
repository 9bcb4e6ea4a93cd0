import { useState, type FormEvent } from 'react';
import type { ChannelResult, DesktopSettings } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { Notice } from '../../components/StatusViews';
import { invoke } from '../../lib/api';
import { useDraft } from '../../lib/use-draft';
import { RESTART_HINT, SettingsSection } from './SettingsSection';
import { useCoreSettingsSave } from './use-core-settings-save';

const LABELS = {
  'storage.backend': 'Where files are kept',
  'storage.s3.bucket': 'Bucket',
  'storage.s3.region': 'Region',
  'storage.s3.endpoint': 'Endpoint',
  'storage.s3.accessKeyId': 'Access key ID',
  'storage.s3.secretAccessKey': 'Secret access key',
};

interface StorageDraft {
  backend: 'local' | 's3';
  bucket: string;
  region: string;
  endpoint: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

function draftOf(s: DesktopSettings): StorageDraft {
  const s3 = s.core.storage.s3;
  return {
    backend: s.core.storage.backend,
    bucket: s3?.bucket ?? '',
    region: s3?.region ?? 'us-east-1',
    endpoint: s3?.endpoint ?? '',
    forcePathStyle: s3?.forcePathStyle ?? false,
    accessKeyId: '',
    secretAccessKey: '',
  };
}

export function StorageSection({ settings }: { settings: DesktopSettings }) {
  const [draft, setDraft, clearDraft] = useDraft<StorageDraft>('settings:storage', () => draftOf(settings));
  const form = useCoreSettingsSave(LABELS);
  const [check, setCheck] = useState<ChannelResult<'settings:testStorage'> | null>(null);
  const [checking, setChecking] = useState(false);
  const hasCredentials = settings.core.storage.s3HasCredentials;
  const set = <K extends keyof StorageDraft>(key: K, value: StorageDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    form.clear(`storage.s3.${key}`);
    setCheck(null);
  };
  const s3Settings = () => ({
    bucket: draft.bucket.trim(),
    region: draft.region.trim() || 'us-east-1',
    endpoint: draft.endpoint.trim() || null,
    forcePathStyle: draft.forcePathStyle,
    ...(draft.accessKeyId && draft.secretAccessKey
      ? { accessKeyId: draft.accessKeyId, secretAccessKey: draft.secretAccessKey }
      : {}),
  });
  const missing = (): Record<string, string> => {
    const found: Record<string, string> = {};
    if (draft.backend !== 's3') return found;
    if (!draft.bucket.trim()) found['storage.s3.bucket'] = 'Required';
    if (Boolean(draft.accessKeyId) !== Boolean(draft.secretAccessKey)) {
      const which = draft.accessKeyId ? 'storage.s3.secretAccessKey' : 'storage.s3.accessKeyId';
      found[which] = 'Give both the access key ID and the secret, or neither';
    }
    return found;
  };

  const test = async () => {
    if (!form.check(missing())) return;
    setChecking(true);
    setCheck(null);
    try {
      setCheck(await invoke('settings:testStorage', s3Settings()));
    } catch (err) {
      form.fail(err);
    } finally {
      setChecking(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.check(missing())) return;
    await form.save(
      draft.backend === 's3' ? { storage: { backend: 's3', s3: s3Settings() } } : { storage: { backend: 'local' } },
      () => clearDraft(),
    );
  };

  return (
    <SettingsSection
      id="storage"
      title="Storage"
      description="Where uploads and rendered videos are kept: on this disk (in the data folder), or in an S3-compatible bucket."
    >
      <form ref={form.formRef} onSubmit={submit} noValidate aria-label="Storage" className="settings-form">
        <fieldset className="choice-group">
          <legend className="label-text">Where files are kept</legend>
          <label className="choice">
            <input
              type="radio"
              name="storage"
              checked={draft.backend === 'local'}
              onChange={() => set('backend', 'local')}
            />
            <span>
              <span className="choice-label">This computer</span>
              <span className="choice-hint">The blobs folder in the data folder.</span>
            </span>
          </label>
          <label className="choice">
            <input type="radio" name="storage" checked={draft.backend === 's3'} onChange={() => set('backend', 's3')} />
            <span>
              <span className="choice-label">S3-compatible bucket</span>
              <span className="choice-hint">AWS S3, MinIO, Cloudflare R2… Uploads go straight to the bucket.</span>
            </span>
          </label>
        </fieldset>
        {draft.backend === 's3' ? (
          <div className="form-grid">
            <Field label="Bucket" required error={form.errors['storage.s3.bucket']}>
              <input value={draft.bucket} onChange={(e) => set('bucket', e.target.value)} spellCheck={false} />
            </Field>
            <Field label="Region" error={form.errors['storage.s3.region']}>
              <input value={draft.region} onChange={(e) => set('region', e.target.value)} spellCheck={false} />
            </Field>
            <Field
              label="Endpoint"
              error={form.errors['storage.s3.endpoint']}
              hint="Leave empty for AWS; e.g. http://127.0.0.1:9000 for a MinIO server."
            >
              <input value={draft.endpoint} onChange={(e) => set('endpoint', e.target.value)} spellCheck={false} />
            </Field>
            <div className="field checkbox-field">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.forcePathStyle}
                  onChange={(e) => set('forcePathStyle', e.target.checked)}
                />
                Path-style addresses (most servers other than AWS need this)
              </label>
            </div>
            <Field label="Access key ID" error={form.errors['storage.s3.accessKeyId']}>
              <input
                value={draft.accessKeyId}
                onChange={(e) => set('accessKeyId', e.target.value)}
                placeholder={hasCredentials ? 'Stored; leave empty to keep' : ''}
                autoComplete="off"
                spellCheck={false}
              />
            </Field>
            <Field
              label="Secret access key"
              error={form.errors['storage.s3.secretAccessKey']}
              hint="Both go to the OS keychain, never to config.json."
            >
              <input
                type="password"
                value={draft.secretAccessKey}
                onChange={(e) => set('secretAccessKey', e.target.value)}
                placeholder={hasCredentials ? 'Stored; leave empty to keep' : ''}
                autoComplete="off"
              />
            </Field>
          </div>
        ) : null}
        {check ? (
          <p
            className={`check-result ${check.ok ? 'check-ok' : 'check-bad'}`}
            role="status"
            data-testid="storage-check"
          >
            <span className={`badge badge-${check.ok ? 'success' : 'danger'}`}>{check.ok ? 'Works' : 'Problem'}</span>{' '}
            {check.message}
          </p>
        ) : null}
        {form.failure ? <ApiErrorBanner title="The storage settings were not saved" error={form.failure} /> : null}
        {form.outcome ? <Notice tone={form.outcome.tone}>{form.outcome.text}</Notice> : null}
        <div className="form-actions">
          {draft.backend === 's3' ? (
            <button type="button" className="btn btn-secondary" onClick={() => void test()} disabled={checking}>
              {checking ? 'Testing…' : 'Test connection'}
            </button>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={form.busy}>
            {form.busy ? 'Restarting…' : 'Save and restart'}
          </button>
          <span className="muted">{RESTART_HINT}</span>
        </div>
      </form>
    </SettingsSection>
  );
}
