import type { FastifyInstance } from 'fastify';
import {
  LIMITS,
  PricingSchema,
  TEMPLATE_CATEGORIES,
  TemplateIdParamsSchema,
  TemplateListQuerySchema,
  TemplateListSchema,
  TemplatePatchSchema,
  TemplateSchema,
  TemplateDeletedSchema,
  TemplateWriteSchema,
} from '../../../../shared/video.schema.js';
import type { Core } from '../../create-core.js';
import type { OpenApiRegistry } from '../../http/openapi.js';
import { defineRoute } from '../../http/route.js';
import { pricingDocument, PRICING_FORMULA } from '../generations/pricing.js';

const WRITE_RULES =
  'The template is checked as a whole; every problem is listed in the 400 message: field types, duplicate keys, ' +
  'min_length > max_length, min/max_length on non-text variables, a {{token}} without a text variable, malformed tokens, ' +
  'slot/type mismatches, a category without its media variable (image-to-video and ingredients-to-video need an image ' +
  'variable, video-to-video a video one, audio-to-video an audio one; text-to-video takes no image or video variables). ' +
  `category is one of ${TEMPLATE_CATEGORIES.join(', ')}; only ingredients-to-video templates accept character_variables.`;

/** GET/POST /api/templates, GET/PATCH/PUT/DELETE /api/templates/:id, GET /api/pricing. */
export function registerTemplatesRoutes(app: FastifyInstance, registry: OpenApiRegistry, core: Core): void {
  const { templates } = core.video;
  const tags = ['templates'];

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/templates',
      api: 'video',
      scope: 'templates:read',
      summary: 'List the templates: the built-ins and the organization’s own',
      description: `limit defaults to ${LIMITS.templates.default}; a limit above ${LIMITS.templates.max} is clamped to ${LIMITS.templates.max} (pagination.limit says the size used); limit < 1 or a negative offset is a 400.`,
      tags,
      query: TemplateListQuerySchema,
      responses: {
        200: { description: 'A page of templates', schema: TemplateListSchema },
        400: { description: 'validation_error' },
      },
    },
    ({ query, auth, reply }) => {
      reply.type('application/json; charset=utf-8');
      return templates.listJson(auth.orgId, query);
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/templates/:id',
      api: 'video',
      scope: 'templates:read',
      summary: 'Get a template',
      tags,
      params: TemplateIdParamsSchema,
      responses: {
        200: { description: 'The template', schema: TemplateSchema },
        404: { description: 'not_found: no such template (or another organization’s)' },
      },
    },
    ({ params, auth }) => templates.get(auth.orgId, params.id),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/templates',
      api: 'video',
      scope: 'templates:write',
      summary: 'Create a template of the organization',
      description: WRITE_RULES,
      tags,
      body: TemplateWriteSchema,
      responses: {
        200: { description: 'The created template', schema: TemplateSchema },
        400: { description: 'validation_error: the configuration is invalid (the message lists every reason)' },
      },
    },
    ({ body, auth }) => templates.create(auth.orgId, body),
  );

  const readOnly = { description: 'forbidden: built-in templates are read-only (copy one with POST /api/templates)' };
  defineRoute(
    app,
    registry,
    {
      method: 'PATCH',
      url: '/api/templates/:id',
      api: 'video',
      scope: 'templates:write',
      summary: 'Change some fields of an organization template',
      description: `Fields not sent keep their value (input_variables is replaced as a whole). ${WRITE_RULES}`,
      tags,
      params: TemplateIdParamsSchema,
      body: TemplatePatchSchema,
      responses: {
        200: { description: 'The updated template', schema: TemplateSchema },
        400: { description: 'validation_error: the resulting configuration is invalid' },
        403: readOnly,
        404: { description: 'not_found' },
      },
    },
    ({ params, body, auth }) => templates.patch(auth.orgId, params.id, body),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'PUT',
      url: '/api/templates/:id',
      api: 'video',
      scope: 'templates:write',
      summary: 'Replace an organization template',
      description: WRITE_RULES,
      tags,
      params: TemplateIdParamsSchema,
      body: TemplateWriteSchema,
      responses: {
        200: { description: 'The updated template', schema: TemplateSchema },
        400: { description: 'validation_error: the configuration is invalid' },
        403: readOnly,
        404: { description: 'not_found' },
      },
    },
    ({ params, body, auth }) => templates.replace(auth.orgId, params.id, body),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/templates/:id',
      api: 'video',
      scope: 'templates:write',
      summary: 'Delete an organization template',
      description: 'Generations made from it keep their record.',
      tags,
      params: TemplateIdParamsSchema,
      responses: {
        200: { description: 'Deleted', schema: TemplateDeletedSchema },
        403: readOnly,
        404: { description: 'not_found' },
      },
    },
    ({ params, auth }) => {
      templates.delete(auth.orgId, params.id);
      return { id: params.id, deleted: true as const };
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/pricing',
      api: 'video',
      scope: 'templates:read',
      summary: 'The credit pricing table',
      description: `${PRICING_FORMULA}. A template whose model/resolution/duration has no entry answers 400 pricing_error on generate.`,
      tags: ['credits'],
      responses: { 200: { description: 'Pricing per model and resolution', schema: PricingSchema } },
    },
    () => pricingDocument(),
  );
}
