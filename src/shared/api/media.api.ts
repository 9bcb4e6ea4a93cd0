import {
  PresignUploadRequestSchema,
  PresignedUploadSchema,
  SignedUrlQuerySchema,
  TYPES_TEXT,
  StoredUploadSchema,
  UploadKeyParamsSchema,
  UploadListQuerySchema,
  UploadListSchema,
} from '../uploads.schema.js';
import { LIMITS } from '../video.schema.js';
import {
  CharacterCreateSchema,
  CharacterIdParamsSchema,
  CharacterListQuerySchema,
  CharacterListSchema,
  CharacterPatchSchema,
  CharacterSchema,
} from '../video-characters.schema.js';
import { defineApiRoutes } from './api-route.js';

const IMAGES =
  'reference_image_keys: 1-4 images, each the storage key of an image this organization uploaded (an http(s) URL or a base64 ' +
  'data URI is re-hosted first).';
const URLS = 'reference_image_urls: time-limited download URLs of the images, in the same order.';

/** Uploads (presigned PUTs, the local store's files) and characters. */
export const MEDIA_API = defineApiRoutes({
  presignUpload: {
    method: 'POST',
    path: '/api/s3/presign-upload',
    api: 'video',
    scope: 'templates:read',
    summary: 'Create a presigned upload URL for an image, video, audio or captions file',
    description:
      `Returns a storage key and a URL to PUT the file bytes to, with a Content-Type header equal to content_type. ${TYPES_TEXT} ` +
      'The URL expires after storage.urlTtlSec (default 900 s) and takes one file: after a complete PUT, another PUT is a 409. ' +
      'Local storage enforces max_bytes while receiving and decodes the file (ffprobe; captions: UTF-8 text the captions ' +
      'parser reads) before keeping it; with S3 storage the ' +
      'size and content are checked when the key is first used (S3 itself accepts repeated PUTs until the URL expires).',
    tags: ['uploads'],
    body: PresignUploadRequestSchema,
    responses: {
      200: { description: 'The presigned upload', schema: PresignedUploadSchema },
      400: { description: 'validation_error: invalid kind or unsupported contentType' },
      500: { description: 'server_error: the URL could not be created' },
    },
  },

  putUpload: {
    method: 'PUT',
    path: '/api/uploads/*',
    api: 'video',
    scope: null,
    rawBody: true,
    summary: 'Receive the bytes of a presigned upload (local storage)',
    description:
      'No API key: the URL signature is the authorization. Single use: the first PUT claims the upload before its body is ' +
      'read; parallel PUTs to the same URL get 409 upload_in_progress, and once a file is stored every further PUT gets 409 ' +
      'upload_already_used. A PUT that fails (aborted, too large, not decodable) gives the URL back for a retry. The body is ' +
      'streamed to disk (never buffered), rejected past max_bytes, and decoded with ffprobe: it must really be an image, video ' +
      'or audio file of the signed kind (a captions file: UTF-8 SRT or WebVTT that the captions parser reads, the 400 naming ' +
      'the wrong line); the response and the record carry its real type. Nothing partial is kept.',
    tags: ['uploads'],
    query: SignedUrlQuerySchema.partial(),
    contentTypes: ['application/octet-stream'],
    responses: {
      200: { description: 'Stored', schema: StoredUploadSchema },
      400: { description: 'validation_error: wrong Content-Type, or the bytes do not decode as the signed kind' },
      403: { description: 'forbidden: signature missing or wrong, or the URL expired' },
      404: { description: 'not_found: the upload no longer exists' },
      409: {
        description: 'upload_already_used (a file was stored) or upload_in_progress (another PUT is receiving it)',
      },
      413: { description: 'payload_too_large: the file exceeds max_bytes' },
    },
  },

  listUploads: {
    method: 'GET',
    path: '/api/uploads',
    api: 'video',
    scope: 'templates:read',
    summary: "List the organization's stored files (uploads and media the server stored from requests)",
    description:
      `Complete files only, newest first, each with its storage key and a time-limited download url (storage.urlTtlSec). ` +
      `kind filters to image, video, audio or captions. limit defaults to ${LIMITS.uploads.default}; above ${LIMITS.uploads.max} it is clamped.`,
    tags: ['uploads'],
    query: UploadListQuerySchema,
    responses: {
      200: { description: 'A page of stored files', schema: UploadListSchema },
      400: { description: 'validation_error: bad kind, limit or offset' },
    },
  },

  deleteUpload: {
    method: 'DELETE',
    path: '/api/uploads/:key',
    api: 'video',
    scope: 'templates:write',
    summary: 'Delete a stored file of the organization',
    description:
      'key: the storage key as one percent-encoded path segment (its slashes as %2F). The key stops resolving at once ' +
      '(generate and characters answer 400 for it). A file still used as a character reference image, as a variable ' +
      "default of one of the organization's templates, or by a video being generated, is kept: 409 upload_in_use " +
      'names what uses it.',
    tags: ['uploads'],
    params: UploadKeyParamsSchema,
    responses: {
      204: { description: 'Deleted' },
      404: { description: 'not_found: no such file in this organization' },
      409: { description: 'upload_in_use (details.used_by) or upload_in_progress (a PUT is receiving it)' },
    },
  },

  getFile: {
    method: 'GET',
    path: '/api/files/*',
    api: 'video',
    scope: null,
    summary: 'Download a stored file through a presigned URL (local storage)',
    description:
      'No API key: the URL signature is the authorization. Supports a single byte Range; HEAD answers the headers only.',
    tags: ['uploads'],
    query: SignedUrlQuerySchema.partial(),
    responses: {
      200: { description: 'The file bytes, with Content-Type and Content-Length' },
      206: { description: 'The requested byte range' },
      403: { description: 'forbidden: signature missing or wrong, or the URL expired' },
      404: { description: 'not_found: the file does not exist' },
      416: { description: 'range_not_satisfiable' },
    },
  },

  listCharacters: {
    method: 'GET',
    path: '/api/characters',
    api: 'video',
    scope: 'characters:read',
    summary: 'List the characters the organization can use: public ones and its own private ones',
    description:
      `q: case-insensitive substring of the name, at least 2 characters (else 400). limit defaults to ${LIMITS.characters.default}; ` +
      `above ${LIMITS.characters.max} it is clamped. Public characters first, then the organization’s, newest first. ${URLS}`,
    tags: ['characters'],
    query: CharacterListQuerySchema,
    responses: {
      200: { description: 'A page of characters', schema: CharacterListSchema },
      400: { description: 'validation_error: q shorter than 2 characters, bad limit/offset' },
      500: { description: 'server_error' },
    },
  },

  createCharacter: {
    method: 'POST',
    path: '/api/characters',
    api: 'video',
    scope: 'characters:write',
    summary: 'Create a private character of the organization',
    description: `${IMAGES} The character is visible to this organization only; use it in character_variables.`,
    tags: ['characters'],
    body: CharacterCreateSchema,
    responses: {
      200: { description: 'The created character', schema: CharacterSchema },
      400: {
        description:
          'validation_error: bad fields or a reference image that is not an uploaded image of this organization',
      },
    },
  },

  updateCharacter: {
    method: 'PATCH',
    path: '/api/characters/:id',
    api: 'video',
    scope: 'characters:write',
    summary: 'Change a private character of the organization',
    description:
      `Fields not sent keep their value. ${IMAGES} A new list replaces the old one; images no longer used stay in ` +
      'the organization’s uploads (GET /api/uploads). Public characters are read-only (403).',
    tags: ['characters'],
    params: CharacterIdParamsSchema,
    body: CharacterPatchSchema,
    responses: {
      200: { description: 'The changed character', schema: CharacterSchema },
      400: { description: 'validation_error: bad fields or reference images' },
      403: { description: 'forbidden: a public character' },
      404: { description: 'not_found: no such character for this organization' },
    },
  },

  deleteCharacter: {
    method: 'DELETE',
    path: '/api/characters/:id',
    api: 'video',
    scope: 'characters:write',
    summary: 'Delete a private character of the organization',
    description:
      'Its reference images stay in the organization’s uploads. Videos already generated with it are kept. Public ' +
      'characters are read-only (403).',
    tags: ['characters'],
    params: CharacterIdParamsSchema,
    responses: {
      204: { description: 'Deleted' },
      403: { description: 'forbidden: a public character' },
      404: { description: 'not_found: no such character for this organization' },
    },
  },
});
