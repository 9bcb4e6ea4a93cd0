import type { FastifyInstance } from 'fastify';
import {
  CharacterCreateSchema,
  CharacterListQuerySchema,
  CharacterListSchema,
  CharacterSchema,
  LIMITS,
} from '../../../../shared/video.schema.js';
import type { Core } from '../../create-core.js';
import type { OpenApiRegistry } from '../../http/openapi.js';
import { defineRoute } from '../../http/route.js';

/** GET /api/characters, POST /api/characters. */
export function registerCharactersRoutes(app: FastifyInstance, registry: OpenApiRegistry, core: Core): void {
  const { characters } = core.video;
  const tags = ['characters'];

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
        `above ${LIMITS.characters.max} it is clamped. Public characters first, then the organization’s, newest first.`,
      tags,
      query: CharacterListQuerySchema,
      responses: {
        200: { description: 'A page of characters', schema: CharacterListSchema },
        400: { description: 'validation_error: q shorter than 2 characters, bad limit/offset' },
        500: { description: 'server_error' },
      },
    },
    ({ query, auth }) => characters.list(auth.orgId, query),
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
      description:
        'reference_image_keys: 1-4 images, each the storage key of an image this organization uploaded (an http(s) URL or a base64 ' +
        'data URI is re-hosted first). The character is visible to this organization only; use it in character_variables.',
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
    ({ body, auth }) => characters.create(auth.orgId, body),
  );
}
