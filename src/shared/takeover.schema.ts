// Zod schemas of the live page where a person finishes a stopped login (docs/person-in-the-loop.md#the-live-page). The page
// itself (src/main/core/login/takeover/live-page/) speaks this protocol. Pure: imports nothing but zod.
import { z } from 'zod';

export const LiveLoginParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a login id is 1-64 of A-Z a-z 0-9 _ . -'),
});

export const LiveAssetParamsSchema = z.object({ file: z.enum(['takeover.js', 'takeover.css']) });

const coordinate = z.number().finite().min(-100_000).max(100_000);
const modifiers = z.number().int().min(0).max(15).optional();

/** One input of the person, in CSS px of the remote page's viewport. */
export const TakeoverInputSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('mouse'),
      action: z.enum(['move', 'down', 'up']),
      x: coordinate,
      y: coordinate,
      button: z.enum(['none', 'left', 'middle', 'right']).default('none'),
      // 0 on a move (the page sends it so; a press or release counts 1-3).
      clickCount: z.number().int().min(0).max(3).optional(),
      modifiers,
    }),
    z.object({
      type: z.literal('wheel'),
      x: coordinate,
      y: coordinate,
      deltaX: coordinate,
      deltaY: coordinate,
      modifiers,
    }),
    z.object({
      type: z.literal('key'),
      action: z.enum(['down', 'up']),
      key: z.string().min(1).max(32),
      code: z.string().max(32).optional(),
      text: z.string().max(8).optional(),
      modifiers,
    }),
    z.object({ type: z.literal('text'), text: z.string().min(1).max(4096) }),
  ])
  .meta({ id: 'TakeoverInput' });
export type TakeoverInputBody = z.infer<typeof TakeoverInputSchema>;

export const TakeoverResizeSchema = z.object({
  width: z.number().finite().min(1).max(10_000),
  height: z.number().finite().min(1).max(10_000),
});
