/**
 * @module snapshot-view
 * Snapshots in the viewer. "Snapshot" (in the layer list) keeps the room as it is now on the
 * host and shows the link that opens it. `/?snapshot=<id>` opens one exactly as it was: its
 * scene (each layer's bytes by the blob id the snapshot kept, whatever the room did since) and
 * its camera, read-only, under a banner whose "Restore into room" makes a room's scene that of
 * the snapshot and then follows that room.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import type { Snapshot } from '../../core/wire/snapshot-types.ts';
import { h, replaceChildren, smallButton } from '../dom.ts';
import { describeError } from './request-failure.ts';

/** The "Snapshot" button and the link it shows (to the snapshot, in the room it was taken in). */
export function snapshotControl(client: VitrineClient, room: () => string): HTMLElement {
  const link = h('a', { class: 'link snapshot-link', target: '_blank', rel: 'noopener', 'data-testid': 'snapshot-link', hidden: true });
  const button = smallButton('Snapshot', 'Keep the room as it is now (layers, view, results) and get a link to it', 'snapshot');
  button.addEventListener('click', () => {
    button.disabled = true;
    client
      .scene(room())
      .snapshot()
      .then(({ id, url }) => {
        // The link names the room it was taken in, so "Restore into room" on the page it
        // opens goes back there (a snapshot's id depends only on its content, not its room).
        const href = new URL(url, window.location.href);
        href.searchParams.set('room', room());
        link.href = `${href.pathname}${href.search}`;
        link.textContent = `snapshot ${id.slice(0, 12)}…`;
        link.title = new URL(url, window.location.href).href;
      })
      .catch((error: unknown) => {
        link.removeAttribute('href');
        link.textContent = `No snapshot: ${describeError(error)}`;
      })
      .finally(() => {
        link.hidden = false;
        button.disabled = false;
      });
  });
  return h('div', { class: 'snapshot-control' }, button, link);
}

export interface SnapshotHooks {
  client: VitrineClient;
  /** Shows the snapshot's scene (read-only) and camera. */
  show(snapshot: Snapshot): void;
  /** The room the page names (the restore goes there). */
  room(): string;
  /** Where the banner goes. */
  banner: HTMLElement;
  /** Says why the snapshot cannot be shown. */
  fail(title: string, detail: string): void;
}

/** Opens snapshot `id`: shows it read-only, with the banner and its "Restore into room". */
export async function openSnapshot(id: string, hooks: SnapshotHooks): Promise<void> {
  let snapshot: Snapshot;
  try {
    snapshot = await hooks.client.getSnapshot(id);
  } catch (error) {
    hooks.fail('The snapshot could not be opened', describeError(error));
    return;
  }
  const status = h('span', { class: 'snapshot-status', 'data-testid': 'snapshot-status' });
  const restore = h('button', { type: 'button', class: 'button small', 'data-testid': 'restore-snapshot' }, 'Restore into room');
  restore.addEventListener('click', () => {
    const room = hooks.room();
    restore.disabled = true;
    hooks.client
      .scene(room)
      .restore(id)
      .then(() => window.location.assign(`/?room=${encodeURIComponent(room)}&follow=1`))
      .catch((error: unknown) => {
        status.textContent = `Not restored: ${describeError(error)}`;
        restore.disabled = false;
      });
  });
  const taken = Number.isFinite(snapshot.created) ? ` taken ${new Date(snapshot.created).toLocaleString()}` : '';
  replaceChildren(hooks.banner, h('strong', {}, 'Snapshot'), h('span', {}, `${id.slice(0, 12)}…${taken} · read-only`), restore, status);
  hooks.banner.hidden = false;
  hooks.show(snapshot);
}
