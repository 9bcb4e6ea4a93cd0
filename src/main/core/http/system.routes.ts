// The server's own routes: liveness and the OpenAPI document of the route table.
import { APP_VERSION } from '../../../shared/version.js';
import { OpenApiDocument } from './openapi.js';
import type { FeatureRoutes } from './route.js';
import { dataDirProof, type DataDirIdentity } from './server-record.js';

/** `dataDir`: the data dir this server serves, for the health challenge's proof (server-record.ts). */
export function systemRoutes(dataDir: DataDirIdentity) {
  const started = Date.now();
  const openapi = new OpenApiDocument();
  return {
    health: ({ query }) => ({
      status: 'ok' as const,
      version: APP_VERSION,
      uptime_sec: Math.round((Date.now() - started) / 1000),
      ...(query.challenge ? { data_dir_proof: dataDirProof(dataDir, query.challenge) } : {}),
    }),
    openapi: ({ req }) =>
      openapi.document({ version: APP_VERSION, serverUrl: `http://${req.headers.host ?? '127.0.0.1'}` }),
  } satisfies FeatureRoutes;
}
