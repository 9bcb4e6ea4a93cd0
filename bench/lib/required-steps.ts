// What the steps a cached login must take (issue "Performance": key check, validation, credential check, decryption,
// answer, log) cost each on their own, in this process, with the server's own functions and keys of the same kinds:
// the least any server doing them could add to the floor's CPU per answer. Each input is made fresh per iteration,
// as a request's are (a parse of one object over and over would be optimised beyond what a server sees).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { LoginRequestSchema } from '../../src/shared/login.schema.js';
import { logRequest } from '../../src/main/core/http/build-server.js';
import { createLogger } from '../../src/main/core/logger.js';
import { readPayload } from '../../src/main/core/login/sessions/session-payload.js';
import { open, seal } from '../../src/main/core/secrets/aead.js';
import { tempDir } from '../../test/helpers/temp-dir.js';
import { round } from './stats.js';

const WARM_UP = 30_000;
const RUNS = 200_000;

/** CPU µs per call of `step` (i: the iteration, for inputs that differ per call). */
function cpuUs(step: (i: number) => unknown): number {
  for (let i = 0; i < WARM_UP; i++) step(i);
  const before = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) step(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / RUNS;
}

/** Each step's CPU µs and their sum, for a login body and a cached state of the sizes the bench serves. */
export function requiredStepsUs(body: string, answer: string): Record<string, number> {
  const cacheKey = crypto.createSecretKey(crypto.randomBytes(32));
  const credentialKey = crypto.createSecretKey(crypto.randomBytes(32));
  const apiKey = `pk_${crypto.randomBytes(30).toString('base64url').slice(0, 40)}`;
  const sealed = seal(cacheKey, JSON.stringify({ v: 2, include: [], state: JSON.parse(answer) }), 'ls_1:org_1');
  const states = Array.from({ length: 1024 }, () => JSON.parse(answer) as unknown);
  const dir = tempDir();
  const logger = createLogger(dir, 'info');
  try {
    const steps = {
      // The API key: its SHA-256 (the row is then found by the digest).
      key_check_us: cpuUs((i) => crypto.hash('sha256', i & 1 ? apiKey : `${apiKey} `, 'buffer')),
      // The body: JSON and the route's zod schema (defaults, URL check, one-of refinement).
      validation_us: cpuUs(() => LoginRequestSchema.safeParse(JSON.parse(body))),
      // The credential check: HMAC-SHA-256 over the identity and the secrets (SessionCache.credentialHash).
      credential_check_us: cpuUs((i) =>
        crypto
          .createHmac('sha256', credentialKey)
          .update(JSON.stringify(['v1', 'org_1', 'http://127.0.0.1', `user${i & 1}`, 'password', [], []]))
          .digest(),
      ),
      // The cached state: AES-256-GCM open with its AAD, and the payload's JSON.
      decryption_us: cpuUs(() => readPayload(open(cacheKey, sealed, 'ls_1:org_1').toString('utf8'))),
      // The answer's JSON (Fastify's default serializer is JSON.stringify), of a state object made per request.
      answer_us: cpuUs((i) => JSON.stringify(states[i & (states.length - 1)])),
      // The request log line, with the server's logger.
      log_us: cpuUs((i) =>
        logRequest(logger.log, {
          method: 'POST',
          route: '/api/login',
          status: 200,
          ms: i & 3,
          keyId: 'key_0123456789ab',
        }),
      ),
    };
    const total = Object.values(steps).reduce((a, b) => a + b, 0);
    return {
      ...Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, round(v, 2)])),
      total_us: round(total, 2),
    };
  } finally {
    logger.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
