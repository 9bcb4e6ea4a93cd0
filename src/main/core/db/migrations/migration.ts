/** One schema change: applied once, in a transaction, in order of `version` (see index.ts). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Run with foreign keys off (a table rebuild: SQLite's 12-step schema change); foreign_key_check must pass
   * before it commits.
   */
  foreignKeysOff?: boolean;
}
