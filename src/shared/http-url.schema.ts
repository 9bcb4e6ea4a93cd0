import { z } from 'zod';

/** An absolute http:// or https:// URL with a host (what both APIs accept for URLs). */
export const httpUrlString = (what: string) =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    }, `${what} must be a full http:// or https:// URL`);
