import { useRef, useState } from 'react';
import { DropZone } from '../../components/DropZone';
import { otpauthFromImage, QrError } from './qr-decode';
import { SecretField } from './SecretField';

/** Who the QR code was for ("Acme:ada@example.com"): the otpauth label, which is not the secret. */
function accountOf(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname.replace(/^\/+/, '')) || 'the account';
  } catch {
    return 'the account';
  }
}

/**
 * The authenticator secret: typed (base32 or an otpauth:// URI), or read from a QR code image dropped or
 * pasted on the field, or chosen with the button. A picture without a QR code says so next to the field.
 */
export function TotpField({
  value,
  onChange,
  saved,
  removed,
  onRemovedChange,
  error,
  required,
}: {
  value: string;
  onChange: (value: string) => void;
  saved: boolean;
  removed: boolean;
  onRemovedChange: (removed: boolean) => void;
  error?: string | null;
  required?: boolean;
}) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const [read, setRead] = useState<{ ok: boolean; text: string } | null>(null);

  const readImage = async (file: File | undefined) => {
    if (!file || removed) return;
    setReading(true);
    setRead(null);
    try {
      const uri = await otpauthFromImage(file);
      onChange(uri);
      setRead({ ok: true, text: `Read the QR code of ${accountOf(uri)}.` });
    } catch (err) {
      setRead({
        ok: false,
        text: err instanceof QrError ? err.message : `The image could not be read: ${String(err)}`,
      });
    } finally {
      setReading(false);
    }
  };

  return (
    <DropZone
      label="Authenticator secret: drop or paste a QR code image here"
      className="totp-drop"
      disabled={removed}
      onFiles={(files) => void readImage(files[0])}
    >
      <SecretField
        label="Authenticator (TOTP) secret"
        value={value}
        onChange={(v) => {
          onChange(v);
          setRead(null);
        }}
        saved={saved}
        removed={removed}
        onRemovedChange={onRemovedChange}
        error={error}
        required={required}
        testId="totp-input"
        hint="The base32 secret or otpauth:// URI behind the site’s authenticator QR code. Or drop or paste a screenshot of the QR code here."
        extra={
          <div className="qr-row">
            <button
              type="button"
              className="btn btn-secondary btn-small"
              disabled={removed || reading}
              onClick={() => fileRef.current?.click()}
            >
              {reading ? 'Reading…' : 'Read a QR code image…'}
            </button>
            <input
              ref={fileRef}
              type="file"
              accept="image/*"
              hidden
              tabIndex={-1}
              aria-hidden="true"
              onChange={(e) => {
                void readImage(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <span className="muted" role="status">
              {read?.ok ? read.text : ''}
            </span>
            {read && !read.ok ? (
              <p className="field-error qr-error" role="alert" data-testid="qr-error">
                {read.text}
              </p>
            ) : null}
          </div>
        }
      />
    </DropZone>
  );
}
