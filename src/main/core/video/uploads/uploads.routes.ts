import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '../../../../shared/api/index.js';
import type { FeatureRoutes } from '../../http/route.js';
import type { BlobStore } from './storage/blob-store.js';
import type { UploadsService } from './uploads.service.js';
import { receiveLocalPut, sendLocalFile } from './local-store-http.js';

/**
 * POST /api/s3/presign-upload, the local store's signed PUT /api/uploads/* and GET /api/files/*, and the
 * organization's stored files: GET /api/uploads, DELETE /api/uploads/:key.
 */
export function uploadsRoutes({ uploads, blobs }: { uploads: UploadsService; blobs: BlobStore }, app: FastifyInstance) {
  // The local store's URLs name the address the server really listens on.
  app.addHook('onListen', async function () {
    const address = app.server.address();
    const local = blobs.selfServed;
    if (local && address && typeof address === 'object') {
      const host =
        address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
      local.setBaseUrl(`http://${host}:${address.port}`);
    }
  });
  // HEAD of a download answers its headers (length, type) without the body. Registered before the table's GET,
  // so Fastify does not expose its own HEAD route for it (that one answers content-length 0).
  app.route({
    method: 'HEAD',
    url: API_ROUTES.getFile.path,
    config: { api: API_ROUTES.getFile.api, scope: API_ROUTES.getFile.scope },
    handler: (req, reply) => sendLocalFile(uploads, req, reply),
  });
  return {
    presignUpload: ({ body, auth, req }) =>
      uploads.presign(auth.orgId, body, { baseUrl: `http://${req.headers.host}` }),
    putUpload: ({ req, reply }) => receiveLocalPut(uploads, req, reply),
    listUploads: ({ query, auth, req }) => uploads.list(auth.orgId, query, { baseUrl: `http://${req.headers.host}` }),
    deleteUpload: async ({ params, auth }) => {
      await uploads.remove(auth.orgId, params.key);
    },
    getFile: ({ req, reply }) => sendLocalFile(uploads, req, reply),
  } satisfies FeatureRoutes;
}
