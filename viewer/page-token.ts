/**
 * @module page-token
 * The token the page sends as Bearer: the host's admin token a link carried (`?token=T`, the
 * token the host printed at start), kept for this tab (sessionStorage) and taken out of the
 * address bar at once, so it is not left in history or copied with a link; else the user's own
 * token, entered once with "Sign in" and kept by the browser (localStorage) until "Sign out".
 */

const KEY = 'vitrine.token';
const USER_KEY = 'vitrine.user-token';

/**
 * What `use` reads or writes in the browser's storage, or undefined where storage throws (a
 * private window's rules): then a token lives as long as the page.
 */
function stored<T>(use: () => T): T | undefined {
  try {
    return use();
  } catch {
    return undefined;
  }
}

/** The signed-in user's token, or undefined. */
export function userToken(): string | undefined {
  return stored(() => localStorage.getItem(USER_KEY)) ?? undefined;
}

/** Keeps (or with null forgets) the user's token for this browser. */
export function keepUserToken(token: string | null): void {
  stored(() => (token ? localStorage.setItem(USER_KEY, token) : localStorage.removeItem(USER_KEY)));
}

/** The token given in the URL (then remembered) or remembered for this tab; undefined when none. */
export function pageToken(location: Location = window.location): string | undefined {
  const query = new URLSearchParams(location.search);
  const given = query.get('token');
  if (given) {
    stored(() => sessionStorage.setItem(KEY, given));
    query.delete('token');
    const rest = query.toString();
    window.history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
    return given;
  }
  return stored(() => sessionStorage.getItem(KEY)) ?? userToken();
}
