/**
 * @module session-file
 * A room as a file in the viewer. "Download session" takes a snapshot of the room and
 * downloads it as `<id>.vitrine` (its document and every byte its layers show), a file a person
 * keeps, mails or opens on another host; "Open session" takes such a file into this host and
 * opens the snapshot read-only (snapshot-view.ts), whose "Restore into room" makes it the
 * room's scene.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import { h, smallButton } from '../dom.ts';
import { describeError } from './request-failure.ts';

/** The two buttons, the link to the last file downloaded, and what went wrong, for the room `room()` names. */
export function sessionControls(client: VitrineClient, room: () => string): HTMLElement {
  const status = h('span', { class: 'session-status', 'data-testid': 'session-status' });
  const link = h('a', { class: 'link session-link', 'data-testid': 'session-link', hidden: true });
  const download = smallButton('Download session', 'Save the room (layers, view, marks, results) as one .vitrine file', 'download-session');
  download.addEventListener('click', () => {
    download.disabled = true;
    status.textContent = '';
    client
      .scene(room())
      .snapshot()
      .then(({ id }) => {
        link.href = client.sessionUrl(id);
        link.download = `${id}.vitrine`;
        link.textContent = `${id.slice(0, 12)}….vitrine`;
        link.hidden = false;
        link.click();
      })
      .catch((error: unknown) => (status.textContent = `Not saved: ${describeError(error)}`))
      .finally(() => (download.disabled = false));
  });
  const picker = h('input', { type: 'file', accept: '.vitrine,application/x-tar', hidden: true, 'data-testid': 'session-file' });
  const open = smallButton('Open session', 'Open a .vitrine file saved here or on another host', 'open-session', () => picker.click());
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    if (!file) return;
    open.disabled = true;
    status.textContent = '';
    client
      .loadSession(file)
      .then(({ id }) => window.location.assign(`/?snapshot=${id}&room=${encodeURIComponent(room())}`))
      .catch((error: unknown) => {
        status.textContent = `Not opened: ${describeError(error)}`;
        open.disabled = false;
      })
      .finally(() => (picker.value = ''));
  });
  return h('div', { class: 'session-controls', 'data-testid': 'session-controls' }, download, open, picker, link, status);
}
