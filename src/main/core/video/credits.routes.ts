// GET /api/credits: the organization's balance and latest ledger entries (credits pay for generations).
import type { FeatureRoutes } from '../http/route.js';
import type { CreditsService } from '../tenancy/credits.service.js';

/** How many ledger entries the answer lists, newest first. */
const LEDGER_ENTRIES = 50;

export function creditsRoutes(credits: CreditsService) {
  return {
    credits: ({ auth }) => ({
      org_id: auth.orgId,
      balance: credits.balance(auth.orgId),
      ledger: credits
        .ledger(auth.orgId, LEDGER_ENTRIES)
        .map(({ amount, kind, ref, created_at }) => ({ amount, kind, ref, created_at })),
    }),
  } satisfies FeatureRoutes;
}
