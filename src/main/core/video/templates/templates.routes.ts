import type { FeatureRoutes } from '../../http/route.js';
import { pricingDocument } from '../pricing.js';
import type { TemplatesService } from './templates.service.js';

/** GET/POST /api/templates, GET/PATCH/PUT/DELETE /api/templates/:id, GET /api/pricing. */
export function templatesRoutes({ templates }: { templates: TemplatesService }) {
  return {
    listTemplates: ({ query, auth, reply }) => {
      reply.type('application/json; charset=utf-8');
      return templates.listJson(auth.orgId, query);
    },
    getTemplate: ({ params, auth }) => templates.get(auth.orgId, params.id),
    createTemplate: ({ body, auth }) => templates.create(auth.orgId, body),
    updateTemplate: ({ params, body, auth }) => templates.patch(auth.orgId, params.id, body),
    replaceTemplate: ({ params, body, auth }) => templates.replace(auth.orgId, params.id, body),
    deleteTemplate: ({ params, auth }) => {
      templates.delete(auth.orgId, params.id);
      return { id: params.id, deleted: true as const };
    },
    pricing: () => pricingDocument(),
  } satisfies FeatureRoutes;
}
