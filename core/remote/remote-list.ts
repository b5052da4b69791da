/**
 * @module remote-list
 * The remotes an operator named, and the one way a reference becomes a URL to read:
 * `NAME/path` resolves only to a URL inside remote NAME's prefix. A name the host does not
 * know, an absolute URL outside every prefix, a path with `.` or `..` segments (percent-encoded
 * too), backslashes or control characters is refused with SPC_ERR_REMOTE_NOT_ALLOWED, before
 * anything is read.
 */
import { createHostError } from '../errors.ts';
import { namesPrivateHost } from './private-address.ts';

/** One remote: its name, its prefix (always ending in `/`) and what the host may reach through it. */
export interface Remote {
  name: string;
  prefix: string;
  kind: 'http' | 's3';
  /** The remote's own URL names a loopback or private host: the operator means it. */
  allowsPrivate: boolean;
}

/** A place inside a remote: the remote, the path below its prefix (`x.ome.zarr/0/zarr.json`), and its URL. */
export interface RemoteTarget {
  remote: Remote;
  path: string;
  url: string;
}

const refused = (what: string, why?: string) => createHostError('SPC_ERR_REMOTE_NOT_ALLOWED', what, ...(why ? [why] : []));

/** The path's segments, each decoded once; throws when one climbs, hides a separator or is not text. */
export function pathSegments(path: string, shown: string): string[] {
  const segments = path.split('/').filter((s) => s !== '');
  return segments.map((raw) => {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw refused(shown, `'${raw}' is not valid percent-encoding`);
    }
    if (segment === '.' || segment === '..') throw refused(shown, 'the path may not climb out of the remote (no . or .. segments)');
    if (/[/\\%\u0000-\u001f\u007f]/.test(segment)) {
      throw refused(shown, `the path segment '${raw}' holds an encoded separator, '%', a backslash or a control character`);
    }
    return segment;
  });
}

export class RemoteList {
  readonly #remotes = new Map<string, Remote>();

  constructor(remotes: Readonly<Record<string, string>>) {
    for (const [name, url] of Object.entries(remotes)) {
      const prefix = url.endsWith('/') ? url : `${url}/`;
      const kind = prefix.startsWith('s3://') ? 's3' : 'http';
      const allowsPrivate = kind === 'http' && namesPrivateHost(new URL(prefix).hostname);
      this.#remotes.set(name, { name, prefix, kind, allowsPrivate });
    }
  }

  /** The remotes' names (never their URLs, which may carry credentials). */
  names(): string[] {
    return [...this.#remotes.keys()].sort();
  }

  get size(): number {
    return this.#remotes.size;
  }

  /**
   * `NAME/path` (or a full URL inside one remote's prefix) as a target; throws
   * SPC_ERR_REMOTE_NOT_ALLOWED for anything outside the remotes.
   */
  resolve(reference: string): RemoteTarget {
    if (typeof reference !== 'string' || reference.trim() === '') throw refused(String(reference), 'give NAME/path, NAME a --remote of this host');
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(reference)) return this.#resolveUrl(reference);
    const slash = reference.indexOf('/');
    const name = slash < 0 ? reference : reference.slice(0, slash);
    const remote = this.#remotes.get(name);
    if (!remote) throw refused(reference, this.#remotes.size === 0 ? 'this host names no --remote' : `no --remote is named '${name}'`);
    return this.target(remote, slash < 0 ? '' : reference.slice(slash + 1), reference);
  }

  /** The target `path` below `remote`'s prefix, its segments checked and encoded again. */
  target(remote: Remote, path: string, shown = `${remote.name}/${path}`): RemoteTarget {
    const segments = pathSegments(path, shown);
    return { remote, path: segments.join('/'), url: remote.prefix + segments.map(encodeURIComponent).join('/') };
  }

  /** A URL given whole: it must lie inside one remote's prefix. */
  #resolveUrl(url: string): RemoteTarget {
    for (const remote of this.#remotes.values()) {
      if (url.startsWith(remote.prefix)) return this.target(remote, url.slice(remote.prefix.length), url);
    }
    throw refused(url, 'it is not within any --remote of this host');
  }

  /** Whether a redirect's `location` stays inside `remote`'s prefix (resolved against the URL it answered). */
  static within(remote: Remote, location: string, from: string): string | null {
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      return null;
    }
    const prefix = new URL(remote.prefix);
    if (next.origin !== prefix.origin || next.username !== prefix.username || !next.pathname.startsWith(prefix.pathname)) return null;
    // The URL parser has already folded `..`; an encoded one left in the path would climb on the server.
    if (/%2e|%2f|%5c/i.test(next.pathname)) return null;
    return next.href;
  }
}
