import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, AppError } from '../../errors.js';
import type { FeatureRoutes } from '../../http/route.js';
import { livePageHtml } from './live-page/live-page.html.js';
import { TAKEOVER_CSS } from './live-page/takeover.css.js';
import { TAKEOVER_JS } from './live-page/takeover.client.js.js';
import type { TakeoverFinisher } from './takeover-finisher.js';
import type { TakeoverEvent, TakeoverSession } from './takeover-session.js';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The live page's routes: the page and its files (no secret in them), then everything else by the login's token. */
export function takeoverRoutes(takeover: TakeoverFinisher) {
  const session = (req: FastifyRequest, id: string): TakeoverSession => {
    const found = takeover.find(id, header(req, 'x-takeover-token'));
    // One answer for a wrong token, an unknown login and one that is over: the URL is the only key.
    if (!found) throw notFound('This live page is not valid: the login it belongs to is over, or the link is wrong.');
    return found;
  };
  const controller = (req: FastifyRequest, s: TakeoverSession) => {
    if (!s.isController(header(req, 'x-takeover-viewer')))
      throw new AppError(409, 'not_controller', 'Another viewer controls this page; you can watch.');
  };
  const page = (reply: FastifyReply, type: string, body: string) =>
    reply
      .type(type)
      .header('Content-Security-Policy', takeover.csp)
      .header('Referrer-Policy', 'no-referrer')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-store')
      .send(body);
  return {
    livePage: ({ reply }) => page(reply, 'text/html; charset=utf-8', livePageHtml({})),
    liveAsset: ({ params, reply }) =>
      params.file === 'takeover.js'
        ? page(reply, 'text/javascript; charset=utf-8', TAKEOVER_JS)
        : page(reply, 'text/css; charset=utf-8', TAKEOVER_CSS),
    liveEvents: ({ params, req, reply }) => {
      const s = session(req, params.id);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      const send = (e: TakeoverEvent) => res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
      // A comment line now and then keeps proxies and the browser from closing an idle stream.
      const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
      const detach = s.attach(send, () => res.end());
      res.on('close', () => {
        clearInterval(ping);
        detach();
      });
      return reply;
    },
    liveInput: async ({ params, body, req }) => {
      const s = session(req, params.id);
      controller(req, s);
      await s.input(body);
    },
    liveResize: async ({ params, body, req }) => {
      const s = session(req, params.id);
      controller(req, s);
      await s.resize(body.width, body.height);
    },
    liveDone: ({ params, req }) => {
      session(req, params.id);
      takeover.act(params.id, header(req, 'x-takeover-token'), 'done');
    },
    liveCancel: ({ params, req }) => {
      session(req, params.id);
      takeover.act(params.id, header(req, 'x-takeover-token'), 'cancel');
    },
  } satisfies FeatureRoutes;
}
