/**
 * @module remote-options
 * The host options of remote data (`--remote NAME=URL`, `--remote-timeout`,
 * `--max-remote-bytes`): their defaults and checks, beside the reader they configure;
 * options.ts folds them into the host's. No remote named: the host reads from nowhere.
 */

export interface RemoteHostOptions {
  /**
   * The only places the host reads data from, by name: `{ "lab": "https://data.lab.org/zarr/" }`
   * (`--remote lab=https://data.lab.org/zarr/`, repeatable); `http://`, `https://` or
   * `s3://BUCKET[/PREFIX]` (an S3 remote uses `s3Endpoint` and the standard AWS settings).
   * @defaultValue {}
   */
  remotes?: Record<string, string>;
  /** Longest one read from a remote may take, seconds (`--remote-timeout`). @defaultValue 10 */
  remoteTimeoutSeconds?: number;
  /** Most bytes a function given a remote volume as input gets: the finest level within it (`--max-remote-bytes`). @defaultValue 512 MiB */
  maxRemoteBytes?: number;
}

export const REMOTE_DEFAULTS = Object.freeze({
  remotes: Object.freeze({}) as Record<string, string>,
  remoteTimeoutSeconds: 10,
  maxRemoteBytes: 512 * 1024 * 1024,
});

/** The remote options' numeric rules (options.ts checks them with the others): a number above 0, or a whole one within 2^53. */
export const REMOTE_NUMBER_RULES = [['remoteTimeoutSeconds', {}], ['maxRemoteBytes', { integer: true, safe: true }]] as const;

/** What a remote's name may be: it is the first segment of `NAME/path`. */
export const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What a remote's URL may be: an http(s) URL with a host, or an S3 bucket with an optional prefix. */
const REMOTE_URL = /^(https?:\/\/[^/\s?#]+(\/[^\s?#]*)?|s3:\/\/[a-z0-9][a-z0-9.-]{1,62}(\/[^\s?#]*)?)$/;

/** Why `url` cannot be a remote's URL, or null when it can. */
export function remoteUrlProblem(url: string): string | null {
  if (!REMOTE_URL.test(url)) return `must be an http://, https:// or s3://BUCKET[/PREFIX] URL without query or fragment, got '${url}'`;
  if (/(^|\/)\.\.?(\/|$)/.test(url.replace(/^[a-z0-9]+:\/\//, ''))) return `must not hold '.' or '..' segments, got '${url}'`;
  return null;
}

/** `NAME=URL` (one `--remote` flag) as a name and URL; throws an Error saying what is wrong. */
export function parseRemoteFlag(raw: string): [string, string] {
  const at = raw.indexOf('=');
  const name = at < 0 ? '' : raw.slice(0, at).trim();
  const url = at < 0 ? '' : raw.slice(at + 1).trim();
  if (!REMOTE_NAME.test(name)) throw new Error(`--remote takes NAME=URL with a name of letters, digits, '_', '.' or '-', got '${raw}'`);
  const problem = remoteUrlProblem(url);
  if (problem) throw new Error(`--remote ${name}: the URL ${problem}`);
  return [name, url];
}

/** Throws a TypeError naming the first bad remote option. */
export function checkRemoteOptions(o: Required<RemoteHostOptions>): void {
  if (typeof o.remotes !== 'object' || o.remotes === null || Array.isArray(o.remotes)) throw new TypeError('remotes must be an object of name: URL');
  for (const [name, url] of Object.entries(o.remotes)) {
    if (!REMOTE_NAME.test(name)) throw new TypeError(`remotes: '${name}' is not a usable name (letters, digits, '_', '.', '-')`);
    const problem = typeof url === 'string' ? remoteUrlProblem(url) : 'must be a string';
    if (problem) throw new TypeError(`remotes.${name} ${problem}`);
  }
}
