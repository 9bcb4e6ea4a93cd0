import {
  LiveAssetParamsSchema,
  LiveLoginParamsSchema,
  TakeoverInputSchema,
  TakeoverResizeSchema,
} from '../takeover.schema.js';
import { defineApiRoutes } from './api-route.js';

const token =
  'No API key: the header X-Takeover-Token carries the token after the # of the takeover_url (random, for this ' +
  'login only, ends with it); POSTs also name the viewer (X-Takeover-Viewer, from the hello event). 404 for a wrong ' +
  'token, an unknown login or one that is over.';

/** The live page where a person finishes a stopped login from any browser (docs/person-in-the-loop.md#the-live-page). */
export const TAKEOVER_API = defineApiRoutes({
  livePage: {
    method: 'GET',
    path: '/live/:id',
    api: 'login',
    scope: null,
    summary: 'The live page of a login waiting for a person (HTML; open the takeover_url, whose # holds its token)',
    tags: ['takeover'],
    params: LiveLoginParamsSchema,
    responses: { 200: { description: 'The page (text/html; it reads the token from the URL fragment)' } },
  },

  liveAsset: {
    method: 'GET',
    path: '/live/assets/:file',
    api: 'login',
    scope: null,
    summary: "The live page's script and style sheet",
    tags: ['takeover'],
    params: LiveAssetParamsSchema,
    responses: { 200: { description: 'text/javascript or text/css' } },
  },

  liveEvents: {
    method: 'GET',
    path: '/live/:id/events',
    api: 'login',
    scope: null,
    summary: 'The live view as server-sent events: hello, state, frame (JPEG), end',
    description: token,
    tags: ['takeover'],
    params: LiveLoginParamsSchema,
    responses: { 200: { description: 'text/event-stream' }, 404: { description: 'NOT_FOUND' } },
  },

  liveInput: {
    method: 'POST',
    path: '/live/:id/input',
    api: 'login',
    scope: null,
    summary: "The person's mouse, wheel, key or text input, sent into the page",
    description: token,
    tags: ['takeover'],
    params: LiveLoginParamsSchema,
    body: TakeoverInputSchema,
    bodyLimit: 16 * 1024,
    responses: {
      204: { description: 'Sent' },
      404: { description: 'NOT_FOUND' },
      409: { description: 'NOT_CONTROLLER: another viewer controls the page' },
    },
  },

  liveResize: {
    method: 'POST',
    path: '/live/:id/resize',
    api: 'login',
    scope: null,
    summary: "The remote viewport follows the person's window (CSS px, clamped to 320-1920 x 240-1200)",
    description: token,
    tags: ['takeover'],
    params: LiveLoginParamsSchema,
    body: TakeoverResizeSchema,
    responses: {
      204: { description: 'Resized' },
      404: { description: 'NOT_FOUND' },
      409: { description: 'NOT_CONTROLLER' },
    },
  },

  liveDone: {
    method: 'POST',
    path: '/live/:id/done',
    api: 'login',
    scope: null,
    summary: 'The person finished: the session goes back to the waiting login',
    description: token,
    tags: ['takeover'],
    params: LiveLoginParamsSchema,
    responses: { 204: { description: 'Handed back' }, 404: { description: 'NOT_FOUND' } },
  },

  liveCancel: {
    method: 'POST',
    path: '/live/:id/cancel',
    api: 'login',
    scope: null,
    summary: 'The person gives up: the login answers its typed error (details.interactive "closed")',
    description: token,
    tags: ['takeover'],
    params: LiveLoginParamsSchema,
    responses: { 204: { description: 'Given up' }, 404: { description: 'NOT_FOUND' } },
  },
});
