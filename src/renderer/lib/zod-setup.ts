// Must be the renderer's first import: zod builds its schemas' fast paths with `new Function` unless
// told not to, and the CSP (script-src 'self', no 'unsafe-eval') forbids that.
import { config } from 'zod';

config({ jitless: true });
