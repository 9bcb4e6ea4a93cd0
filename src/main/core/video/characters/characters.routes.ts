import type { FeatureRoutes } from '../../http/route.js';
import type { CharactersService } from './characters.service.js';

/** GET /api/characters, POST /api/characters, PATCH and DELETE /api/characters/:id. */
export function charactersRoutes({ characters }: { characters: CharactersService }) {
  const baseUrl = (host: string | undefined) => (host ? `http://${host}` : undefined);
  return {
    listCharacters: async ({ query, auth, req }) => {
      const found = characters.list(auth.orgId, query);
      return { ...found, data: await characters.present(found.data, baseUrl(req.headers.host)) };
    },
    createCharacter: async ({ body, auth, req }) => {
      const [created] = await characters.present(
        [await characters.create(auth.orgId, body)],
        baseUrl(req.headers.host),
      );
      return created;
    },
    updateCharacter: async ({ params, body, auth, req }) => {
      const updated = await characters.update(auth.orgId, params.id, body);
      const [view] = await characters.present([updated], baseUrl(req.headers.host));
      return view;
    },
    deleteCharacter: ({ params, auth }) => {
      characters.remove(auth.orgId, params.id);
    },
  } satisfies FeatureRoutes;
}
