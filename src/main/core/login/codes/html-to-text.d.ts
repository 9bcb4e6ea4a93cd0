// html-to-text (installed with mailparser) ships no type declarations; this is the small part find-code.ts uses.
declare module 'html-to-text' {
  export interface HtmlToTextSelector {
    selector: string;
    format?: string;
    options?: Record<string, unknown>;
  }
  export interface HtmlToTextOptions {
    wordwrap?: number | false | null;
    selectors?: HtmlToTextSelector[];
    decodeEntities?: boolean;
    limits?: { maxInputLength?: number; maxChildNodes?: number; maxDepth?: number };
  }
  /** Builds a converter once (options compiled into a selector tree) for repeated use. */
  export function compile(options?: HtmlToTextOptions): (html: string) => string;
  export function convert(html: string, options?: HtmlToTextOptions): string;
}
