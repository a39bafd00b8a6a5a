/**
 * Who is calling a tool. Over HTTP the server only knows what the front door authenticated: the bundled Lambda passes
 * the IAM principal of the request context as `authInfo.clientId` (the MCP SDK hands `authInfo` through, never reading
 * it from request headers). Over stdio one process serves one OS user.
 */
import { hostname, userInfo } from 'os';

/** The part of the MCP SDK's `AuthInfo` read here. */
export interface McpCallerAuthInfo {
  readonly clientId?: string;
}

/** The caller named by `authInfo`, if any. */
export function callerIdentity(authInfo: McpCallerAuthInfo | undefined): string | undefined {
  const id = authInfo?.clientId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The OS user running this process, on this host (`local:<user>@<host>`, or the uid when there is no user name). */
export function processCallerIdentity(): string {
  let user: string;
  try {
    user = userInfo().username || `uid-${process.getuid?.() ?? 'unknown'}`;
  } catch {
    // userInfo throws for a uid without a passwd entry (some containers).
    user = `uid-${process.getuid?.() ?? 'unknown'}`;
  }
  return `local:${user}@${hostname()}`;
}
