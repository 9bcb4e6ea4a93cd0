/**
 * A message that may carry a login code or a sign-in link: an email read from a mailbox over IMAP,
 * or an email/SMS handed to POST /api/login/inbox. Its body is secret: it never reaches a log,
 * a step trace or an error.
 */
export interface InboundMessage {
  /** Lower-cased recipient addresses (emails) or E.164 numbers (SMS). */
  to: string[];
  from?: string;
  subject?: string;
  text?: string;
  html?: string;
  /** Unix ms when this process received it (IMAP: when the watcher saw it). */
  receivedAt: number;
  /** Where it came from, for the step trace (e.g. "mailbox 'Work'", "inbox endpoint"). */
  via: string;
}

/** What a code step or a link step asks a source for. */
export type CodeKind = 'code' | 'link';

/** A code or a sign-in link found in a message (or computed, for TOTP). */
export type FoundSecret = { kind: 'code'; value: string } | { kind: 'link'; url: string };
