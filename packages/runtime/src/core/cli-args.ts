/**
 * `util.parseArgs`'s refusal in the CLI's words: its errors carry a `code` and a message naming the option
 * (https://nodejs.org/api/util.html#utilparseargsconfig).
 */
export function cliArgsProblem(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': return `unknown option '${/'([^']+)'/.exec(message)?.[1] ?? message}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': return `${/--[a-z][a-z-]*/.exec(message)?.[0] ?? message} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': return `unexpected argument (${message})`;
    default: return message;
  }
}
