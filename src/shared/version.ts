/** Kept in step with package.json by test/unit/shared/version.test.ts. */
export const APP_VERSION = '0.1.0';
