// Zod schema of GET /api/credits. Pure: imports nothing but zod.
import { z } from 'zod';

export const CreditsSchema = z.object({
  org_id: z.string(),
  balance: z.number(),
  ledger: z.array(
    z.object({ amount: z.number(), kind: z.string(), ref: z.string().nullable(), created_at: z.number() }),
  ),
});
export type Credits = z.infer<typeof CreditsSchema>;
