import path from 'node:path';
import type { AppConfig } from '../../../config/config.schema.js';
import type { SecretStore } from '../../../secrets/secret-store.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';
import { UrlSigner } from './url-signer.js';

/** The configured blob store: local disk under `<dataDir>/blobs` (default) or an S3 bucket. */
export function createBlobStore(config: AppConfig, secrets: SecretStore): BlobStore {
  const storage = config.storage;
  if (storage.backend === 's3') {
    if (!storage.s3) throw new Error('storage.backend is "s3" but storage.s3 (bucket, region...) is not configured.');
    return new S3BlobStore({ ...storage.s3, secrets, spoolDir: path.join(config.dataDir, 'tmp') });
  }
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  return new LocalBlobStore({
    root: path.join(config.dataDir, 'blobs'),
    signer: new UrlSigner(secrets),
    baseUrl: `http://${host}:${config.server.port}`,
  });
}
