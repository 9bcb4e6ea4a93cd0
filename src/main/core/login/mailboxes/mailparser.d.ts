// The part of mailparser 3.x (plain JavaScript, no bundled types) that the mailbox watcher uses.
declare module 'mailparser' {
  import type { Readable } from 'node:stream';

  export interface EmailAddress {
    address?: string;
    name: string;
    /** Members of an address group ("undisclosed-recipients: a@x, b@y;"). */
    group?: EmailAddress[];
  }
  export interface AddressObject {
    value: EmailAddress[];
    html: string;
    text: string;
  }
  export interface ParsedMail {
    /** Lower-cased header names; address headers (delivered-to included) are AddressObjects, others strings. */
    headers: Map<string, unknown>;
    subject?: string;
    from?: AddressObject;
    to?: AddressObject | AddressObject[];
    cc?: AddressObject | AddressObject[];
    date?: Date;
    messageId?: string;
    text?: string;
    html: string | false;
  }
  export interface SimpleParserOptions {
    /** Leave `cid:` image links alone instead of inlining attachments into the HTML as data: URLs. */
    keepCidLinks?: boolean;
    skipImageLinks?: boolean;
    skipHtmlToText?: boolean;
    skipTextToHtml?: boolean;
    skipTextLinks?: boolean;
    maxHtmlLengthToParse?: number;
  }
  export function simpleParser(source: Buffer | string | Readable, options?: SimpleParserOptions): Promise<ParsedMail>;
}
