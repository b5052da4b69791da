/**
 * @module command-exit
 * How a command ends with words: a failure or a usage error said on standard error, a usage
 * asked for (`--help`) on standard output; each answers the command's exit code.
 */

/** Writes `text` to standard error; answers `code`. */
export function fail(code: number, text: string): number {
  process.stderr.write(text);
  return code;
}

/** Writes `text` to standard output; answers 0. */
export function say(text: string): number {
  process.stdout.write(text);
  return 0;
}
