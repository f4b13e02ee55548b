/** A database URL as the command shows it; kept apart from the store so that showing one loads no driver. */

/**
 * The URL as it may be shown: its password replaced. A Unix-socket URL has no host
 * (`postgres://user:pw@/db?host=/run/postgresql`), which URL parsing refuses, so this is textual.
 */
export function withoutPassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@');
}
