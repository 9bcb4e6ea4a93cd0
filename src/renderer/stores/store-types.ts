/**
 * The app store's state: each slice's interface and the types they share, and AppState, their union.
 * Slices (`*.slice.ts`) import their state types from here, never from app-store.ts, so that the store
 * can import every slice without a circle. This file imports no slice.
 */
import type {
  ApiKeySummary,
  ApiStatus,
  AppInfo,
  ChannelArgs,
  ChannelResult,
  Character,
  CharacterInput,
  CoreSettingsPatch,
  Credits,
  DesktopSettings,
  GenerateResponse,
  Generation,
  IpcEventPayload,
  LoginMethodInfo,
  Mailbox,
  MailboxTestResult,
  OrgSummary,
  PickedFile,
  SessionSummary,
  SessionValidation,
  StorageState,
  Template,
  TemplateCategory,
  TemplateInput,
  Theme,
  UploadedFile,
  UploadInfo,
  UploadKind,
  UploadProgress,
  WebhookSecret,
} from '../../shared/ipc-contract.js';
import type { CredentialUse, SavedLogin } from '../../shared/credentials.schema.js';
import type { SessionRequest } from '../lib/snippets';
import type { Loadable } from './loadable';

export type { UploadKind };

export const SCREENS = [
  'sessions',
  'saved-logins',
  'browser-profiles',
  'templates',
  'uploads',
  'characters',
  'generate',
  'generations',
  'settings',
] as const;
export type Screen = (typeof SCREENS)[number];

export interface NavSlice {
  screen: Screen;
  /** Template chosen in the Templates screen (detail) or handed to the Generate screen. */
  selectedTemplateId: string | null;
  generateTemplateId: string | null;
  /** Generation to show (player) in the Generations screen. */
  selectedGenerationId: string | null;
  navigate(screen: Screen, opts?: { templateId?: string | null; generationId?: string | null }): void;
  selectTemplate(id: string | null): void;
  selectGeneration(id: string | null): void;
}

export interface AppInfoSlice {
  appInfo: AppInfo | null;
  appInfoError: string | null;
  loadAppInfo(): Promise<void>;
}

export interface SessionsSlice {
  sessions: Loadable<SessionSummary[]>;
  loadSessions(): Promise<void>;
  /** Throws on failure (the caller shows it next to the row). */
  deleteSession(id: string): Promise<void>;
  /** Session shown in the detail panel. */
  selectedSessionId: string | null;
  selectSession(id: string | null): void;
  /** The last re-test of each session in this window. */
  validations: Record<string, SessionValidation>;
  /** Re-tests a session on its site (a dead one may be dropped: the list is reloaded). Throws on failure. */
  validateSession(id: string): Promise<SessionValidation>;
}

export interface TemplatesSlice {
  templates: Loadable<Template[]>;
  templateCategory: TemplateCategory | null;
  setTemplateCategory(category: TemplateCategory | null): Promise<void>;
  loadTemplates(): Promise<void>;
  /** Creates (id null) or updates a template; throws ApiError with the server's validation message. */
  saveTemplate(id: string | null, input: TemplateInput): Promise<Template>;
  deleteTemplate(id: string): Promise<void>;
}

export interface CharactersSlice {
  characters: Loadable<Character[]>;
  /** The search the list shows ('' for all). */
  characterQuery: string;
  searchCharacters(q: string): Promise<void>;
  createCharacter(input: CharacterInput): Promise<Character>;
  /** Changes one of the organization's characters; throws ApiError with the server's message. */
  updateCharacter(id: string, patch: ChannelArgs<'characters:update'>['body']): Promise<Character>;
  deleteCharacter(id: string): Promise<void>;
}

export interface UploadItem {
  file: PickedFile;
  status: 'picked' | 'uploading' | 'done' | 'failed';
  loaded: number;
  result: UploadedFile | null;
  error: string | null;
  /** Which screen started it (the Uploads screen lists its own). */
  origin: string;
}

export interface UploadsSlice {
  uploads: UploadItem[];
  /** Shows the file picker; null when cancelled. */
  pickFile(kind: UploadKind, origin?: string): Promise<PickedFile | null>;
  upload(token: string): Promise<UploadedFile>;
  applyUploadProgress(p: UploadProgress): void;
  /** Removes a row from the list (a failed upload the person has read). */
  dismissUpload(token: string): void;
  /** Pick then upload in one go (Generate and Characters). Null when the pick is cancelled. */
  pickAndUpload(kind: UploadKind, origin: string): Promise<UploadedFile | null>;
  /** Files dropped or pasted into the window, uploaded one by one (each as a row with its progress). */
  uploadFiles(files: File[], origin: string): Promise<UploadedFile[]>;
  /** The organization's stored files (GET /api/uploads), newest first. */
  storedUploads: Loadable<UploadInfo[]>;
  loadStoredUploads(opts?: { quiet?: boolean }): Promise<void>;
  /** Throws ApiError (upload_in_use names what still uses it). */
  deleteStoredUpload(key: string): Promise<void>;
}

export interface GenerationsSlice {
  generations: Loadable<Generation[]>;
  loadGenerations(opts?: { quiet?: boolean }): Promise<void>;
  cancelGeneration(id: string): Promise<void>;
  /** Deletes a finished generation and its files (DELETE /api/generations/:id). Throws ApiError. */
  deleteGeneration(id: string): Promise<void>;
  /** Live progress pushed by the app: the row moves without waiting for the next poll. */
  applyGenerationProgress(p: IpcEventPayload<'generation:progress'>): void;
  /** A generation finished: reload the list (video and thumbnail URLs, refunds, the others' queue places). */
  applyGenerationFinished(p: IpcEventPayload<'generation:finished'>): void;
  /** Fetches these generations into the list (just started ones), so their events move them on screen. */
  trackGenerations(ids: string[]): Promise<void>;
  /** Makes a generation again with the same inputs (one video); the new one is tracked. Throws ApiError. */
  regenerate(g: Generation): Promise<GenerateResponse>;
}

export interface CreditsSlice {
  /** The organization's credit balance (null until loaded or when it cannot be read). */
  balance: number | null;
  loadBalance(): Promise<void>;
}

/**
 * What people typed into forms, by form key, so a half-filled form is still there after visiting
 * another screen. Memory only: nothing here is written to disk.
 */
export interface DraftsSlice {
  drafts: Record<string, unknown>;
  setDraft(key: string, value: unknown): void;
  clearDraft(key: string): void;
}

export type SettingsUpdate = ChannelResult<'settings:update'>;

export interface SettingsSlice {
  settings: Loadable<DesktopSettings | null>;
  /** The theme choice (applied at once; kept by the app). */
  theme: Theme;
  loadSettings(): Promise<void>;
  setTheme(theme: Theme): Promise<void>;
  /** Writes the core's settings and restarts it; throws ApiError (field issues in details.issues). */
  saveCoreSettings(patch: CoreSettingsPatch): Promise<SettingsUpdate>;
  /** Whether the agents' API answers over HTTP (null until first checked). */
  apiStatus: ApiStatus | null;
  refreshApiStatus(): Promise<void>;
}

export type CreatedKey = ChannelResult<'keys:create'>;
export type KeyCreateInput = Omit<ChannelArgs<'keys:create'>, 'orgId'>;

/** Organizations, their API keys and credits (Settings; desktop-only channels). */
export interface AdminSlice {
  orgs: Loadable<OrgSummary[]>;
  /** The organization whose keys and credits Settings shows (default: this window's). */
  adminOrgId: string | null;
  keys: Loadable<ApiKeySummary[]>;
  orgCredits: Loadable<Credits | null>;
  loadOrgs(): Promise<void>;
  selectAdminOrg(id: string): Promise<void>;
  createOrg(name: string): Promise<OrgSummary>;
  /** Makes the window work in this organization (the core restarts), then reloads the page. Throws ApiError. */
  switchWindowOrg(id: string): Promise<void>;
  /** Lets the organization's keys read the person's browser profiles, or stops them. Throws ApiError. */
  setOrgBrowserProfiles(id: string, allowed: boolean): Promise<void>;
  loadKeys(): Promise<void>;
  /** The answer's `key` is the plaintext: show it once, keep it nowhere. */
  createKey(input: KeyCreateInput): Promise<CreatedKey>;
  revokeKey(id: string): Promise<void>;
  loadOrgCredits(): Promise<void>;
  grantCredits(amount: number): Promise<void>;
}

export type MailboxInput = ChannelArgs<'mailboxes:create'>['body'];

/** The login methods the server serves, its mailboxes, and the video service's webhook secret (API routes). */
export interface IntegrationsSlice {
  /** GET /api/login/methods: the login form offers these, with the fields each needs. */
  loginMethods: Loadable<LoginMethodInfo[]>;
  loadLoginMethods(): Promise<void>;
  mailboxes: Loadable<Mailbox[]>;
  /** The last check of each mailbox, by id. */
  mailboxChecks: Record<string, { running: boolean; result: MailboxTestResult | null; error: string | null }>;
  loadMailboxes(): Promise<void>;
  addMailbox(input: MailboxInput): Promise<Mailbox>;
  removeMailbox(id: string): Promise<void>;
  testMailbox(id: string): Promise<void>;
  webhookSecret: Loadable<WebhookSecret | null>;
  loadWebhookSecret(): Promise<void>;
  rotateWebhookSecret(): Promise<void>;
}

/** A login as the window shows it: the storageState, the wall time seen here, and whether the cache served it. */
export interface LoginTestResult extends StorageState {
  duration_ms: number;
  from_cache: boolean;
}

export interface LoginStep {
  step: string;
  elapsedMs: number;
}

/** One login started from this window, with the steps the engine reported as they happened. */
export interface LoginRun {
  /** Sent as X-Login-Id: its login:step events carry it, and a cancel names it. */
  loginId: string;
  request: SessionRequest;
  steps: LoginStep[];
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  startedAt: number;
  durationMs: number | null;
  /** The cache entry it made or served (X-Session-Id). */
  sessionId: string | null;
  /** `details` as the API sent them (validation issues, details.field): the form marks its fields with them. */
  error: { code: string; message: string; details?: Record<string, unknown> } | null;
  /** Memory only, never written anywhere: the window's export buttons hand it over on request. */
  result: LoginTestResult | null;
}

export interface LoginRunsSlice {
  /** The login form's latest run. */
  loginRun: LoginRun | null;
  /** The last login made in this window for each session (its step history and result), by session id. */
  loginHistory: Record<string, LoginRun>;
  /** Runs POST /api/login with a fresh login id; resolves with the finished run (it never throws). */
  runLogin(body: ChannelArgs<'sessions:testLogin'>['body']): Promise<LoginRun>;
  /** Cancels the running login (its POST answers LOGIN_CANCELLED); throws when it cannot. */
  cancelLogin(): Promise<void>;
  applyLoginStep(p: IpcEventPayload<'login:step'>): void;
}

/**
 * A login of this window's organization that waits for the person ("Needs you"). `takeoverUrl` (with the live page's
 * #token) lives in this memory only: it is handed to the panel's frame and never shown, logged or written anywhere.
 */
export type LivePagePlace = 'banner' | 'login-form';

export interface WaitingLogin {
  loginId: string;
  reason: IpcEventPayload<'login:needs-person'>['reason'];
  site: string;
  takeoverUrl: string;
}

/** What the "Needs you" banner last had to say: a login arrived (said to screen readers only) or ended (shown). */
export interface LoginHelpNews {
  /** Counts up: the same words said twice are announced twice. */
  seq: number;
  text: string;
  tone: 'success' | 'info' | 'warning';
  /** Shown on screen (an ending); an arrival is visible in the banner already, so it is only announced. */
  shown: boolean;
}

export interface LoginHelpSlice {
  /** Waiting logins, oldest first. */
  waitingLogins: WaitingLogin[];
  /** The login whose live page the panel shows, or null (closed). */
  livePageLoginId: string | null;
  /** Where that panel is: under the banner, or in the Sessions form's progress panel of the login it started. */
  livePagePlace: LivePagePlace;
  loginHelpNews: LoginHelpNews | null;
  applyLoginNeedsPerson(p: IpcEventPayload<'login:needs-person'>): void;
  applyLoginFinished(p: IpcEventPayload<'login:finished'>): void;
  showLivePage(loginId: string | null, place?: LivePagePlace): void;
  /** POST /api/login/{id}/cancel; its login:finished removes the line. Throws ApiError when it cannot. */
  cancelWaitingLogin(loginId: string): Promise<void>;
  dismissLoginHelpNews(): void;
}

export type SavedLoginCreateBody = ChannelArgs<'credentials:create'>['body'];
export type SavedLoginUpdateBody = ChannelArgs<'credentials:update'>['body'];
export type SavedLoginTestOutcome = ChannelResult<'credentials:test'>;

/** What the Saved logins screen shows: the list, one saved login, its form (new or edit), or the import. */
export type SavedLoginView =
  | { kind: 'list' }
  /** `saved`: opened by a save of the form (the detail offers to test it). */
  | { kind: 'detail'; id: string; saved?: true }
  | { kind: 'add' }
  | { kind: 'edit'; id: string }
  | { kind: 'import' };

/** A "Test now" of a saved login from this window: its live steps, then the outcome (never a secret). */
export interface SavedLoginTest {
  loginId: string;
  status: 'running' | 'succeeded' | 'failed';
  steps: LoginStep[];
  startedAt: number;
  outcome: SavedLoginTestOutcome | null;
  /** The test could not run at all (the channel failed), as opposed to a login that failed. */
  error: string | null;
}

/**
 * Saved logins (the vault): metadata only. Secrets are never kept here: Reveal shows them in the detail's own
 * state until hidden, Copy goes straight to the OS clipboard, and an import's file lives only in its form.
 */
export interface SavedLoginsSlice {
  savedLogins: Loadable<SavedLogin[]>;
  savedLoginView: SavedLoginView;
  showSavedLogins(view: SavedLoginView): void;
  /** Opens the Saved logins screen on one saved login (from a session's detail). */
  openSavedLogin(id: string): void;
  loadSavedLogins(): Promise<void>;
  /** Throws ApiError (validation issues, CREDENTIAL_EXISTS) for the form to place on its fields. */
  createSavedLogin(body: SavedLoginCreateBody): Promise<SavedLogin>;
  /**
   * `confirmedMove`: the person confirmed that the change moves where the secrets are typed (a new login page origin,
   * an origin added); it goes as the person, which the API refuses to an API key without the secrets.
   */
  updateSavedLogin(id: string, body: SavedLoginUpdateBody, opts?: { confirmedMove?: boolean }): Promise<SavedLogin>;
  deleteSavedLogin(id: string): Promise<void>;
  /** The use log of each saved login opened here, by id. */
  credentialUses: Record<string, Loadable<CredentialUse[]>>;
  loadCredentialUses(id: string): Promise<void>;
  /** The API keys of this window's organization (for the sharing picker and the use log's key names). */
  shareKeys: Loadable<ApiKeySummary[]>;
  loadShareKeys(): Promise<void>;
  /** The last Test now of each saved login, by id. */
  savedLoginTests: Record<string, SavedLoginTest>;
  /** Logs in with the saved login now, as the person; resolves when it finished (never throws). */
  testSavedLogin(id: string): Promise<SavedLoginTest>;
  applySavedLoginTestStep(p: IpcEventPayload<'login:step'>): void;
}

export type BrowserProfileList = ChannelResult<'browserProfiles:list'>;
export type ProfileImport = ChannelResult<'browserProfiles:import'>;

/** An import started from this window: the sites asked for, then the outcome per site, or the refusal. */
export interface ProfileImportRun {
  profileId: string;
  sites: string[];
  status: 'running' | 'done' | 'failed';
  result: ProfileImport | null;
  /** The service's refusal (code and plain message: PROFILE_LOCKED, KEYCHAIN_REFUSED, …). */
  error: { code: string; message: string } | null;
}

/** Your browsers: the person's own browser profiles (desktop-only channels), and the last import from one. */
export interface BrowserProfilesSlice {
  browserProfiles: Loadable<BrowserProfileList>;
  loadBrowserProfiles(): Promise<void>;
  /** The profile whose sites the screen shows. */
  selectedProfileId: string | null;
  selectProfile(id: string | null): void;
  profileImport: ProfileImportRun | null;
  /** Imports the sites from the profile; resolves when finished (never throws). */
  importFromProfile(profileId: string, sites: string[]): Promise<ProfileImportRun>;
  /** Opens the Sessions screen on one session. */
  openSession(id: string): void;
}

export type AppState = NavSlice &
  AppInfoSlice &
  SessionsSlice &
  TemplatesSlice &
  CharactersSlice &
  UploadsSlice &
  GenerationsSlice &
  CreditsSlice &
  DraftsSlice &
  SettingsSlice &
  AdminSlice &
  IntegrationsSlice &
  LoginRunsSlice &
  LoginHelpSlice &
  SavedLoginsSlice &
  BrowserProfilesSlice;
