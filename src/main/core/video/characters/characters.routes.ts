import type { FastifyInstance } from 'fastify';
import {
  CharacterCreateSchema,
  CharacterIdParamsSchema,
  CharacterListQuerySchema,
  CharacterListSchema,
  CharacterPatchSchema,
  CharacterSchema,
  LIMITS,
} from '../../../../shared/video.schema.js';
import type { Core } from '../../create-core.js';
import type { OpenApiRegistry } from '../../http/openapi.js';
import { defineRoute } from '../../http/route.js';

const IMAGES =
  'reference_image_keys: 1-4 images, each the storage key of an image this organization uploaded (an http(s) URL or a base64 ' +
  'data URI is re-hosted first).';
const URLS = 'reference_image_urls: time-limited download URLs of the images, in the same order.';

/** GET /api/characters, POST /api/characters, PATCH and DELETE /api/characters/:id. */
export function registerCharactersRoutes(app: FastifyInstance, registry: OpenApiRegistry, core: Core): void {
  const { characters } = core.video;
  const tags = ['characters'];
  const baseUrl = (host: string | undefined) => (host ? `http://${host}` : undefined);

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/characters',
      api: 'video',
      scope: 'characters:read',
      summary: 'List the characters the organization can use: public ones and its own private ones',
      description:
        `q: case-insensitive substring of the name, at least 2 characters (else 400). limit defaults to ${LIMITS.characters.default}; ` +
        `above ${LIMITS.characters.max} it is clamped. Public characters first, then the organization’s, newest first. ${URLS}`,
      tags,
      query: CharacterListQuerySchema,
      responses: {
        200: { description: 'A page of characters', schema: CharacterListSchema },
        400: { description: 'validation_error: q shorter than 2 characters, bad limit/offset' },
        500: { description: 'server_error' },
      },
    },
    async ({ query, auth, req }) => {
      const found = characters.list(auth.orgId, query);
      return { ...found, data: await characters.present(found.data, baseUrl(req.headers.host)) };
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/characters',
      api: 'video',
      scope: 'characters:write',
      summary: 'Create a private character of the organization',
      description: `${IMAGES} The character is visible to this organization only; use it in character_variables.`,
      tags,
      body: CharacterCreateSchema,
      responses: {
        200: { description: 'The created character', schema: CharacterSchema },
        400: {
          description:
            'validation_error: bad fields or a reference image that is not an uploaded image of this organization',
        },
      },
    },
    async ({ body, auth, req }) => {
      const [created] = await characters.present(
        [await characters.create(auth.orgId, body)],
        baseUrl(req.headers.host),
      );
      return created;
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'PATCH',
      url: '/api/characters/:id',
      api: 'video',
      scope: 'characters:write',
      summary: 'Change a private character of the organization',
      description:
        `Fields not sent keep their value. ${IMAGES} A new list replaces the old one; images no longer used stay in ` +
        'the organization’s uploads (GET /api/uploads). Public characters are read-only (403).',
      tags,
      params: CharacterIdParamsSchema,
      body: CharacterPatchSchema,
      responses: {
        200: { description: 'The changed character', schema: CharacterSchema },
        400: { description: 'validation_error: bad fields or reference images' },
        403: { description: 'forbidden: a public character' },
        404: { description: 'not_found: no such character for this organization' },
      },
    },
    async ({ params, body, auth, req }) => {
      const updated = await characters.update(auth.orgId, params.id, body);
      const [view] = await characters.present([updated], baseUrl(req.headers.host));
      return view;
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/characters/:id',
      api: 'video',
      scope: 'characters:write',
      summary: 'Delete a private character of the organization',
      description:
        'Its reference images stay in the organization’s uploads. Videos already generated with it are kept. Public ' +
        'characters are read-only (403).',
      tags,
      params: CharacterIdParamsSchema,
      responses: {
        204: { description: 'Deleted' },
        403: { description: 'forbidden: a public character' },
        404: { description: 'not_found: no such character for this organization' },
      },
    },
    ({ params, auth, reply }) => {
      characters.remove(auth.orgId, params.id);
      return reply.status(204).send();
    },
  );
}
