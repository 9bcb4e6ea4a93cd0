/** Net errors that mean the site cannot be reached at all. */
export function unreachableCode(message: string): string | undefined {
  const code =
    /net::(ERR_[A-Z_]+)/.exec(message)?.[1] ?? /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET)\b/.exec(message)?.[1];
  // ERR_ABORTED: the navigation was replaced (JS redirect) or became a download: the site answered.
  return code === 'ERR_ABORTED' ? undefined : code;
}
