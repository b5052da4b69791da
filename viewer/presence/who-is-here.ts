/**
 * @module who-is-here
 * Who else follows the room, beside the "Follow room" switch: each peer's name and kind of
 * client in its colour (the colour it has on the stage), in the order they came. Read whole
 * whenever the room's stream (re)starts (its `state`), then kept by the stream's `presence`
 * events; nothing is polled. This page itself is listed too, in its own colour.
 */
import type { PresenceChange, RoomPeer } from '../../core/wire/wire-types.ts';
import { h } from '../dom.ts';
import { peerColour } from './peer-colour.ts';

export interface WhoIsHereHooks {
  /** Who is here changed: `left`, a peer who left. */
  changed(peers: readonly RoomPeer[], left?: RoomPeer): void;
}

export class WhoIsHere {
  readonly element: HTMLElement;
  readonly #hooks: WhoIsHereHooks;
  #peers = new Map<string, RoomPeer>();
  #self: string | null = null;

  constructor(hooks: WhoIsHereHooks) {
    this.#hooks = hooks;
    this.element = h('span', { class: 'who-is-here', 'data-testid': 'who-is-here', 'aria-live': 'polite', hidden: true });
  }

  /** The names listed, `name (kind)`, in the order they came. */
  get names(): string[] {
    return [...this.#peers.values()].map((peer) => `${peer.name} (${peer.kind})`);
  }

  /** Peer `id`, when here. */
  peer(id: string): RoomPeer | undefined {
    return this.#peers.get(id);
  }

  /** Which peer this page is; null while not known. */
  setSelf(id: string | null): void {
    this.#self = id;
    this.#draw();
  }

  /** The room's roster as read whole. */
  reset(peers: readonly RoomPeer[]): void {
    this.#peers = new Map(peers.map((peer) => [peer.id, peer]));
    this.#draw();
    this.#hooks.changed(peers);
  }

  /** One join or leave. */
  change(change: PresenceChange): void {
    if (change.op === 'join') this.#peers.set(change.peer.id, change.peer);
    else this.#peers.delete(change.peer.id);
    this.#draw();
    this.#hooks.changed([...this.#peers.values()], change.op === 'leave' ? change.peer : undefined);
  }

  /** Following stopped: nobody is shown. */
  clear(): void {
    this.reset([]);
  }

  #draw(): void {
    const names = this.names;
    this.element.hidden = names.length === 0;
    this.element.title = names.length ? `${names.length} following this room` : '';
    this.element.replaceChildren(...(names.length ? [h('span', { class: 'here-label' }, 'Here:')] : []));
    for (const peer of this.#peers.values()) this.element.append(this.#entry(peer));
  }

  #entry(peer: RoomPeer): HTMLElement {
    const entry = h(
      'span',
      { class: 'here-peer', 'data-peer': peer.id, style: `--peer-colour: ${peerColour(peer.id)}` },
      h('span', { class: 'here-swatch', 'aria-hidden': 'true' }),
      h('span', { class: 'here-name' }, `${peer.name} (${peer.kind})`),
    );
    if (peer.id === this.#self) entry.classList.add('self');
    return entry;
  }
}
