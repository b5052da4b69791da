/**
 * @module who-is-here
 * Who else follows the room, beside the "Follow room" switch: each peer's name and kind of
 * client, in the order they came. Read whole whenever the room's stream (re)starts (its
 * `state`), then kept by the stream's `presence` events; nothing is polled.
 */
import type { PresenceChange, RoomPeer } from '../../core/wire/wire-types.ts';
import { h } from '../dom.ts';

export class WhoIsHere {
  readonly element: HTMLElement;
  #peers = new Map<string, RoomPeer>();

  constructor() {
    this.element = h('span', { class: 'who-is-here', 'data-testid': 'who-is-here', 'aria-live': 'polite', hidden: true });
  }

  /** The names listed, `name (kind)`, in the order they came. */
  get names(): string[] {
    return [...this.#peers.values()].map((peer) => `${peer.name} (${peer.kind})`);
  }

  /** The room's roster as read whole. */
  reset(peers: readonly RoomPeer[]): void {
    this.#peers = new Map(peers.map((peer) => [peer.id, peer]));
    this.#draw();
  }

  /** One join or leave. */
  change(change: PresenceChange): void {
    if (change.op === 'join') this.#peers.set(change.peer.id, change.peer);
    else this.#peers.delete(change.peer.id);
    this.#draw();
  }

  /** Following stopped: nobody is shown. */
  clear(): void {
    this.reset([]);
  }

  #draw(): void {
    const names = this.names;
    this.element.hidden = names.length === 0;
    this.element.textContent = names.length ? `Here: ${names.join(', ')}` : '';
    this.element.title = names.length ? `${names.length} following this room` : '';
  }
}
