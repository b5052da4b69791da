/**
 * @module page-token
 * The token the page sends as Bearer: the host's admin token a link carried (`?token=T`, the
 * token the host printed at start), kept for this tab (sessionStorage) and taken out of the
 * address bar at once, so it is not left in history or copied with a link; else the user's own
 * token, entered once with "Sign in" and kept by the browser (localStorage) until "Sign out".
 */

const KEY = 'vitrine.token';
const USER_KEY = 'vitrine.user-token';

/** The signed-in user's token, or undefined. */
export function userToken(): string | undefined {
  try {
    return localStorage.getItem(USER_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps (or with null forgets) the user's token for this browser. */
export function keepUserToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(USER_KEY, token);
    else localStorage.removeItem(USER_KEY);
  } catch {
    // No storage: signing in lasts as long as the page.
  }
}

/** The token given in the URL (then remembered) or remembered for this tab; undefined when none. */
export function pageToken(location: Location = window.location): string | undefined {
  const query = new URLSearchParams(location.search);
  const given = query.get('token');
  if (given) {
    try {
      sessionStorage.setItem(KEY, given);
    } catch {
      // No storage (a private window's rules): the token lives as long as the page.
    }
    query.delete('token');
    const rest = query.toString();
    window.history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
    return given;
  }
  try {
    return sessionStorage.getItem(KEY) ?? userToken();
  } catch {
    return userToken();
  }
}
