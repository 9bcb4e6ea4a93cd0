// Public entry of the typed client: `import { createAgentStudioClient } from 'agent-studio/client'`.
export {
  createAgentStudioClient,
  DEFAULT_BASE_URL,
  type AgentStudioClient,
  type AgentStudioClientOptions,
  type CharacterCreateInput,
  type CharacterListQuery,
  type CharacterPatchInput,
  type CreateGenerationInput,
  type GenerateInput,
  type GenerationListQuery,
  type LoginInput,
  type PresignInput,
  type SignupInput,
  type RefreshInput,
  type TemplateListQuery,
  type TemplatePatchInput,
  type TemplateWriteInput,
  type UploadData,
  type UploadListQuery,
  type WaitForOptions,
} from './agent-studio-client.js';
export { AgentStudioError, CLIENT_ERROR_CODES } from './agent-studio-error.js';
export type { LoginWaitOptions, LoginWaitResult } from './login-wait.js';
export { API_ROUTES, type ApiRoute, type ApiRouteName } from '../shared/api/index.js';
export type { Credits } from '../shared/credits.schema.js';
export type {
  LoginAccepted,
  LoginRun,
  SessionList,
  SessionSummary,
  SessionValidation,
  StorageState,
} from '../shared/login.schema.js';
export type { PresignedUpload, StoredUpload, UploadInfo } from '../shared/uploads.schema.js';
export type { Character } from '../shared/video-characters.schema.js';
export type { GenerateResponse, Generation, Quote } from '../shared/video-generations.schema.js';
export type { GenerationStatus, Renderer, Template, TemplateCategory } from '../shared/video.schema.js';
export type { WebhookDelivery, WebhookEvent, WebhookSecret } from '../shared/webhooks.schema.js';
