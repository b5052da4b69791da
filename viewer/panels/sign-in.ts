/**
 * @module sign-in
 * The top bar's sign-in: a user's token (`vitrine users add NAME` prints it) entered once and
 * kept by the browser, so the host knows who places marks and changes layers, and closed rooms
 * let the user in as their access says. Signed in, it names the user (from `GET /api/me`) and
 * signs out. Changing who one is reloads the page, so every request and stream is made anew.
 */
import { h } from '../dom.ts';
import { keepUserToken, userToken } from '../page-token.ts';

async function nameOf(token: string): Promise<string | null> {
  try {
    const res = await fetch('/api/me', { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    return res.ok ? ((await res.json()) as { name: string }).name : null;
  } catch {
    return null;
  }
}

/**
 * Asks for a token and keeps it, then `reload`s so every request and stream is made as that
 * user; nothing happens when none is given.
 */
export function askToSignIn(reload: () => void = () => window.location.reload()): void {
  const given = window.prompt('Your vitrine token (vitrine users add NAME prints it):')?.trim();
  if (!given) return;
  keepUserToken(given);
  reload();
}

/** The sign-in control for the top bar. */
export function signInControl(reload: () => void = () => window.location.reload()): HTMLElement {
  const button = h('button', { type: 'button', class: 'button ghost small', 'data-testid': 'sign-in' }, 'Sign in');
  const who = h('span', { class: 'host-label', hidden: true, 'data-testid': 'signed-in-as' });
  const token = userToken();
  if (token) {
    button.textContent = 'Sign out';
    void nameOf(token).then((name) => {
      who.textContent = name ?? 'token not known here';
      who.hidden = false;
    });
  }
  button.addEventListener('click', () => {
    if (!token) return askToSignIn(reload);
    keepUserToken(null);
    reload();
  });
  return h('span', { class: 'sign-in' }, who, button);
}
