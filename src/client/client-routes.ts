// The one table of the HTTP routes the typed client calls: method, path, success status and the shared
// zod schemas of the request and the answer. The client makes every request from this table, and
// test/unit/client/client-openapi.test.ts checks each row against the server's OpenAPI document.
import type { z } from 'zod';
import { CreateGenerationRequestSchema } from '../shared/create-generation.schema.js';
import { CreditsSchema } from '../shared/credits.schema.js';
import {
  InboxMessageSchema,
  InboxReceiptSchema,
  LoginMethodListSchema,
  LoginRequestSchema,
  RefreshRequestSchema,
  SessionListSchema,
  SessionValidationSchema,
  StorageStateSchema,
} from '../shared/login.schema.js';
import { SignupRequestSchema } from '../shared/signup.schema.js';
import {
  PresignedUploadSchema,
  StoredUploadSchema,
  UploadListQuerySchema,
  UploadListSchema,
} from '../shared/uploads.schema.js';
import {
  CharacterCreateSchema,
  CharacterListQuerySchema,
  CharacterListSchema,
  CharacterPatchSchema,
  CharacterSchema,
  GenerateRequestSchema,
  GenerateResponseSchema,
  GenerationListQuerySchema,
  GenerationListSchema,
  GenerationSchema,
  PricingSchema,
  TemplateDeletedSchema,
  TemplateListQuerySchema,
  TemplateListSchema,
  TemplatePatchSchema,
  TemplateSchema,
  TemplateWriteSchema,
} from '../shared/video.schema.js';
import { WebhookDeliveryListSchema, WebhookDeliverySchema, WebhookSecretSchema } from '../shared/webhooks.schema.js';

export interface ClientRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify-style path (`:id`), as the server registers it. */
  path: string;
  /** The success status; its body is parsed with `response` (none for 204). */
  status: 200 | 202 | 204;
  /** The shared schema of the JSON body; the client sends its input type, the server parses it. */
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
}

export const CLIENT_ROUTES = {
  login: { method: 'POST', path: '/api/login', status: 200, body: LoginRequestSchema, response: StorageStateSchema },
  signup: { method: 'POST', path: '/api/signup', status: 200, body: SignupRequestSchema, response: StorageStateSchema },
  cancelLogin: { method: 'POST', path: '/api/login/:id/cancel', status: 204 },
  loginMethods: { method: 'GET', path: '/api/login/methods', status: 200, response: LoginMethodListSchema },
  deliverToInbox: {
    method: 'POST',
    path: '/api/login/inbox',
    status: 202,
    body: InboxMessageSchema,
    response: InboxReceiptSchema,
  },
  listSessions: { method: 'GET', path: '/api/sessions', status: 200, response: SessionListSchema },
  deleteSession: { method: 'DELETE', path: '/api/sessions/:id', status: 204 },
  refresh: {
    method: 'POST',
    path: '/api/refresh',
    status: 200,
    body: RefreshRequestSchema,
    response: StorageStateSchema,
  },
  validateSession: {
    method: 'POST',
    path: '/api/sessions/:id/validate',
    status: 200,
    response: SessionValidationSchema,
  },

  listTemplates: {
    method: 'GET',
    path: '/api/templates',
    status: 200,
    query: TemplateListQuerySchema,
    response: TemplateListSchema,
  },
  getTemplate: { method: 'GET', path: '/api/templates/:id', status: 200, response: TemplateSchema },
  createTemplate: {
    method: 'POST',
    path: '/api/templates',
    status: 200,
    body: TemplateWriteSchema,
    response: TemplateSchema,
  },
  updateTemplate: {
    method: 'PATCH',
    path: '/api/templates/:id',
    status: 200,
    body: TemplatePatchSchema,
    response: TemplateSchema,
  },
  replaceTemplate: {
    method: 'PUT',
    path: '/api/templates/:id',
    status: 200,
    body: TemplateWriteSchema,
    response: TemplateSchema,
  },
  deleteTemplate: { method: 'DELETE', path: '/api/templates/:id', status: 200, response: TemplateDeletedSchema },
  pricing: { method: 'GET', path: '/api/pricing', status: 200, response: PricingSchema },

  generate: {
    method: 'POST',
    path: '/api/templates/:id/generate',
    status: 200,
    body: GenerateRequestSchema,
    response: GenerateResponseSchema,
  },
  createGeneration: {
    method: 'POST',
    path: '/api/generations',
    status: 200,
    body: CreateGenerationRequestSchema,
    response: GenerateResponseSchema,
  },
  listGenerations: {
    method: 'GET',
    path: '/api/generations',
    status: 200,
    query: GenerationListQuerySchema,
    response: GenerationListSchema,
  },
  getGeneration: { method: 'GET', path: '/api/generations/:id', status: 200, response: GenerationSchema },
  cancelGeneration: { method: 'POST', path: '/api/generations/:id/cancel', status: 200, response: GenerationSchema },
  deleteGeneration: { method: 'DELETE', path: '/api/generations/:id', status: 204 },

  presignUpload: { method: 'POST', path: '/api/s3/presign-upload', status: 200, response: PresignedUploadSchema },
  /** The local store's signed PUT: the client PUTs to the presigned `upload_url`, never builds this path. */
  putUpload: { method: 'PUT', path: '/api/uploads/*', status: 200, response: StoredUploadSchema },
  listUploads: {
    method: 'GET',
    path: '/api/uploads',
    status: 200,
    query: UploadListQuerySchema,
    response: UploadListSchema,
  },
  /** The storage key is sent as one path segment (its slashes percent-encoded). */
  deleteUpload: { method: 'DELETE', path: '/api/uploads/:key', status: 204 },

  listCharacters: {
    method: 'GET',
    path: '/api/characters',
    status: 200,
    query: CharacterListQuerySchema,
    response: CharacterListSchema,
  },
  createCharacter: {
    method: 'POST',
    path: '/api/characters',
    status: 200,
    body: CharacterCreateSchema,
    response: CharacterSchema,
  },
  updateCharacter: {
    method: 'PATCH',
    path: '/api/characters/:id',
    status: 200,
    body: CharacterPatchSchema,
    response: CharacterSchema,
  },
  deleteCharacter: { method: 'DELETE', path: '/api/characters/:id', status: 204 },
  credits: { method: 'GET', path: '/api/credits', status: 200, response: CreditsSchema },

  webhookSecret: { method: 'GET', path: '/api/webhooks/secret', status: 200, response: WebhookSecretSchema },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/api/webhooks/secret/rotate',
    status: 200,
    response: WebhookSecretSchema,
  },
  webhookDeliveries: {
    method: 'GET',
    path: '/api/generations/:id/webhooks',
    status: 200,
    response: WebhookDeliveryListSchema,
  },
  replayWebhook: {
    method: 'POST',
    path: '/api/generations/:id/webhooks/replay',
    status: 202,
    response: WebhookDeliverySchema,
  },
} as const satisfies Record<string, ClientRoute>;

export type ClientRouteName = keyof typeof CLIENT_ROUTES;
