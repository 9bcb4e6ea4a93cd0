// Types of scripts/architecture-table.mjs for the TypeScript tests.
export const DOC: string;
export const BEGIN: string;
export const END: string;
export function unitComments(source?: string): { comments: Map<string, string>; sections: Map<string, string> };
export function allowedInWords(allowed: readonly string[]): string;
export function coreDepsTable(): string;
export function tableInDoc(text?: string): string | null;
