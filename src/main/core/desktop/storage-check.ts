// "Test connection" for S3 storage settings before they are saved: one HeadBucket with exactly the
// settings given (the same client options as the S3 blob store), its outcome in plain words. Plain Node.
import { lazyModule } from '../lazy-module.js';

/** The S3 SDK is loaded by the first check (a set-up without S3 storage never loads it). */
const loadS3 = lazyModule(() => import('@aws-sdk/client-s3'));

export const STORAGE_CHECK_TIMEOUT_MS = 5000;

export interface StorageCheckSettings {
  bucket: string;
  region: string;
  endpoint?: string | null;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

export interface StorageCheckResult {
  ok: boolean;
  message: string;
  ms: number;
}

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

function problemOf(err: SdkError, s: StorageCheckSettings): string {
  const where = s.endpoint ? new URL(s.endpoint).host : `S3 (${s.region})`;
  const status = err.$metadata?.httpStatusCode;
  const code = err.code ?? err.name;
  if (code === 'ECONNREFUSED') return `Nothing is listening at ${where} (connection refused).`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host of ${where} is not known (DNS lookup failed).`;
  if (code === 'TimeoutError' || code === 'AbortError' || code === 'ETIMEDOUT')
    return `${where} did not answer within ${STORAGE_CHECK_TIMEOUT_MS / 1000} s.`;
  if (status === 404 || code === 'NotFound' || code === 'NoSuchBucket')
    return `There is no bucket "${s.bucket}" at ${where}.`;
  if (status === 403) return `Access denied: these credentials may not use the bucket "${s.bucket}".`;
  if (status === 301 || status === 400)
    return `${where} refused the request (${status}): check the region (${s.region}) and the path-style setting.`;
  if (code === 'CredentialsProviderError')
    return 'No access key: enter the access key ID and secret access key (or set them in the AWS environment).';
  return `The check failed: ${err.message ?? code ?? 'unknown error'}`;
}

/** HeadBucket with these settings; never throws, never includes a credential in the message. */
export async function checkS3Storage(s: StorageCheckSettings): Promise<StorageCheckResult> {
  const { HeadBucketCommand, S3Client } = await loadS3();
  const started = Date.now();
  const client = new S3Client({
    region: s.region,
    endpoint: s.endpoint ?? undefined,
    forcePathStyle: s.forcePathStyle,
    ...(s.credentials ? { credentials: s.credentials } : {}),
    maxAttempts: 1,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), STORAGE_CHECK_TIMEOUT_MS);
  try {
    await client.send(new HeadBucketCommand({ Bucket: s.bucket }), { abortSignal: abort.signal });
    return { ok: true, message: `Connected: the bucket "${s.bucket}" is reachable.`, ms: Date.now() - started };
  } catch (err) {
    const e = err as SdkError;
    const aborted = abort.signal.aborted ? { ...e, code: 'TimeoutError' } : e;
    return { ok: false, message: problemOf(aborted, s), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
    client.destroy();
  }
}
