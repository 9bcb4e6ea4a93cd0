import {
  LIMITS,
  PricingSchema,
  TemplateDeletedSchema,
  TemplateIdParamsSchema,
  TemplateListQuerySchema,
  TemplateListSchema,
  TemplatePatchBodySchema,
  TemplateSchema,
  TemplateWriteBodySchema,
} from '../video.schema.js';
import { PRICING_FORMULA, TEMPLATE_CATEGORIES } from '../video.schema.js';
import { defineApiRoutes } from './api-route.js';

const readOnly = { description: 'forbidden: built-in templates are read-only (copy one with POST /api/templates)' };

const WRITE_RULES =
  'The template is checked as a whole; every problem is listed in the 400 message: field types, duplicate keys, ' +
  'min_length > max_length, min/max_length on non-text variables, a {{token}} without a text variable, malformed tokens, ' +
  'slot/type mismatches, a category without its media variable (image-to-video and ingredients-to-video need an image ' +
  'variable, video-to-video a video one, audio-to-video an audio one; text-to-video takes no image or video variables). ' +
  `category is one of ${TEMPLATE_CATEGORIES.join(', ')}; only ingredients-to-video templates accept character_variables.`;

/** Video templates and their pricing. */
export const TEMPLATES_API = defineApiRoutes({
  listTemplates: {
    method: 'GET',
    path: '/api/templates',
    api: 'video',
    scope: 'templates:read',
    summary: 'List the templates: the built-ins and the organization’s own',
    description: `limit defaults to ${LIMITS.templates.default}; a limit above ${LIMITS.templates.max} is clamped to ${LIMITS.templates.max} (pagination.limit says the size used); limit < 1 or a negative offset is a 400. Scratch templates (preview copies, scratch: true) are not listed nor counted.`,
    tags: ['templates'],
    query: TemplateListQuerySchema,
    responses: {
      200: { description: 'A page of templates', schema: TemplateListSchema },
      400: { description: 'validation_error' },
    },
  },

  getTemplate: {
    method: 'GET',
    path: '/api/templates/:id',
    api: 'video',
    scope: 'templates:read',
    summary: 'Get a template',
    tags: ['templates'],
    params: TemplateIdParamsSchema,
    responses: {
      200: { description: 'The template (a scratch template too: scratch: true)', schema: TemplateSchema },
      404: { description: 'not_found: no such template (or another organization’s)' },
    },
  },

  createTemplate: {
    method: 'POST',
    path: '/api/templates',
    api: 'video',
    scope: 'templates:write',
    summary: 'Create a template of the organization',
    description: WRITE_RULES,
    tags: ['templates'],
    body: TemplateWriteBodySchema,
    responses: {
      200: { description: 'The created template', schema: TemplateSchema },
      400: { description: 'validation_error: the configuration is invalid (the message lists every reason)' },
    },
  },

  updateTemplate: {
    method: 'PATCH',
    path: '/api/templates/:id',
    api: 'video',
    scope: 'templates:write',
    summary: 'Change some fields of an organization template',
    description: `Fields not sent keep their value (input_variables is replaced as a whole). ${WRITE_RULES}`,
    tags: ['templates'],
    params: TemplateIdParamsSchema,
    body: TemplatePatchBodySchema,
    responses: {
      200: { description: 'The updated template', schema: TemplateSchema },
      400: {
        description:
          'validation_error: the resulting configuration is invalid, or scratch: true for a template that is not scratch',
      },
      403: readOnly,
      404: { description: 'not_found' },
    },
  },

  replaceTemplate: {
    method: 'PUT',
    path: '/api/templates/:id',
    api: 'video',
    scope: 'templates:write',
    summary: 'Replace an organization template',
    description: WRITE_RULES,
    tags: ['templates'],
    params: TemplateIdParamsSchema,
    body: TemplateWriteBodySchema,
    responses: {
      200: { description: 'The updated template', schema: TemplateSchema },
      400: {
        description:
          'validation_error: the configuration is invalid, or scratch: true for a template that is not scratch',
      },
      403: readOnly,
      404: { description: 'not_found' },
    },
  },

  deleteTemplate: {
    method: 'DELETE',
    path: '/api/templates/:id',
    api: 'video',
    scope: 'templates:write',
    summary: 'Delete an organization template',
    description: 'Generations made from it keep their record.',
    tags: ['templates'],
    params: TemplateIdParamsSchema,
    responses: {
      200: { description: 'Deleted', schema: TemplateDeletedSchema },
      403: readOnly,
      404: { description: 'not_found' },
    },
  },

  pricing: {
    method: 'GET',
    path: '/api/pricing',
    api: 'video',
    scope: 'templates:read',
    summary: 'The credit pricing table',
    description: `${PRICING_FORMULA}. A template whose model/resolution/duration has no entry answers 400 pricing_error on generate.`,
    tags: ['credits'],
    responses: { 200: { description: 'Pricing per model and resolution', schema: PricingSchema } },
  },
});
