// The server's own routes: liveness, the OpenAPI document of the route table and its API reference page.
import { APP_VERSION } from '../../../shared/version.js';
import type { BaseCore } from '../base-core.js';
import { ApiReferencePage } from './api-reference.js';
import { OpenApiDocument } from './openapi.js';
import type { FeatureRoutes } from './route.js';
import { dataDirProof, type DataDirIdentity } from './server-record.js';

/**
 * `dataDir`: the data dir this server serves, for the health challenge's proof (server-record.ts); `secrets`: whether
 * its stored secrets are all there.
 */
export function systemRoutes(dataDir: DataDirIdentity, secrets: Pick<BaseCore['secretsInventory'], 'peekHealth'>) {
  const started = Date.now();
  const openapi = new OpenApiDocument();
  const reference = new ApiReferencePage();
  return {
    health: ({ query }) => {
      const held = secrets.peekHealth();
      return {
        status: 'ok' as const,
        version: APP_VERSION,
        uptime_sec: Math.round((Date.now() - started) / 1000),
        secrets: held.state,
        secrets_missing: held.missing,
        ...(query.challenge ? { data_dir_proof: dataDirProof(dataDir, query.challenge) } : {}),
      };
    },
    openapi: ({ req }) =>
      openapi.document({ version: APP_VERSION, serverUrl: `http://${req.headers.host ?? '127.0.0.1'}` }),
    apiReference: ({ reply }) => reference.send(reply, 'page'),
    apiReferenceScript: ({ reply }) => reference.send(reply, 'script'),
  } satisfies FeatureRoutes;
}
