/**
 * @module redact-credentials
 * The one place credentials are taken out of what the host shows: answers, `/readyz`, log
 * lines, error messages. A URL keeps its scheme, host, port and path but not its password
 * (`redis://:secret@h:6379` shows as `redis://:***@h:6379`; a user name alone may be a
 * password, so it is hidden too), and secrets the host knows (its admin token, a federation
 * token, the passwords of its Redis URLs, object-store keys) are replaced wherever they
 * appear in a text. The one line that shows a credential on purpose, `admin token: <T>` on
 * standard output at start, does not pass through here.
 */

/** What replaces a credential. */
export const REDACTED = '***';

/** Shortest secret replaced in free text: shorter ones would mask ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** `scheme://userinfo@`: the userinfo of any URL in a text (up to the last `@` before the path: a password may hold an unescaped `@`). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#'"`<>]*)@/gi;

function hiddenUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':');
  if (colon < 0) return userinfo === '' ? '' : REDACTED;
  return `${userinfo.slice(0, colon)}:${REDACTED}`;
}

/**
 * `url` without its password, for showing: the user name stays only when a password follows it.
 * A text that is not a URL comes back with any URL credentials in it hidden.
 */
export function redactUrl(url: string): string {
  return url.replace(USERINFO, (_match, scheme: string, userinfo: string) => `${scheme}${hiddenUserinfo(userinfo)}@`);
}

/** The secrets a URL carries: its password (decoded and as written), or a lone user name. */
export function urlSecrets(url: string | null | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    const raw = parsed.password || (parsed.username && !parsed.password ? parsed.username : '');
    return [...new Set([raw, decodeURIComponent(raw)])].filter((s) => s !== '');
  } catch {
    return [];
  }
}

/** Hides URL credentials and every known secret in texts. */
export class Redactor {
  #secrets: string[] = [];

  constructor(secrets: Iterable<string | null | undefined> = []) {
    this.add(secrets);
  }

  /** Adds secrets to hide (empty and very short ones are ignored). */
  add(secrets: Iterable<string | null | undefined>): void {
    for (const secret of secrets) {
      if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH && !this.#secrets.includes(secret)) this.#secrets.push(secret);
    }
    // Longest first, so a secret containing another is hidden whole.
    this.#secrets.sort((a, b) => b.length - a.length);
  }

  /** `text` with URL credentials and known secrets replaced by `***`. */
  text(text: string): string {
    let out = redactUrl(text);
    for (const secret of this.#secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }
}
