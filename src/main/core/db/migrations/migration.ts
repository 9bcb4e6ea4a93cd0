/** One schema change: applied once, in a transaction, in order of `version` (see index.ts). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
