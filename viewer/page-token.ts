/**
 * @module page-token
 * The host's admin token as the page knows it: a host bound beyond loopback asks for it on
 * room writes (sharing the view, putting an entry), so a link may carry it (`?token=T`, the
 * token the host printed at start). The page keeps it for this tab (sessionStorage) and takes
 * it out of the address bar at once, so it is not left in history or copied with a link.
 */

const KEY = 'vitrine.token';

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
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
