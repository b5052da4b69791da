/**
 * @module who-is-here
 * Who else follows the room, beside the "Follow room" switch: each peer's name and kind of
 * client in its colour (the colour it has on the stage), in the order they came. Read whole
 * whenever the room's stream (re)starts (its `state`), then kept by the stream's `presence`
 * events; nothing is polled. Every other page and headset has a "Follow" button: pressed,
 * this page's camera tracks that peer's (peer-follow.ts) and the button says "Following";
 * pressed again, or once the user moves the camera, following stops and the button says so.
 * A page's agent socket (its Agent panel's: kind `page` with a `client_id`) is not listed: the
 * page it belongs to is, by its event stream, and one page is one entry.
 */
import type { PresenceChange, RoomPeer } from '../../core/wire/room-types.ts';
import { h } from '../dom.ts';
import { peerColour } from './peer-colour.ts';
import type { FollowState } from './peer-follow.ts';

/** Whether `peer` is a member of its own rather than a page's second door (its agent socket). */
const isMember = (peer: RoomPeer): boolean => !(peer.kind === 'page' && peer.client_id !== undefined);

export interface WhoIsHereHooks {
  /** The user pressed `peer`'s Follow button (none without: the page cannot draw). */
  follow?: (peer: RoomPeer) => void;
  /** Who is here changed: `left`, a peer who left. */
  changed(peers: readonly RoomPeer[], left?: RoomPeer): void;
}

export class WhoIsHere {
  readonly element: HTMLElement;
  readonly #hooks: WhoIsHereHooks;
  #peers = new Map<string, RoomPeer>();
  #self: string | null = null;
  #follow: FollowState | null = null;

  constructor(hooks: WhoIsHereHooks) {
    this.#hooks = hooks;
    this.element = h('span', { class: 'who-is-here', 'data-testid': 'who-is-here', 'aria-live': 'polite', hidden: true });
  }

  /** The names listed, `name (kind)`, in the order they came. */
  get names(): string[] {
    return [...this.#peers.values()].map((peer) => `${peer.name} (${peer.kind})`);
  }

  /** Which peer this page is (it gets no Follow button); null while not known. */
  setSelf(id: string | null): void {
    this.#self = id;
    this.#draw();
  }

  /** Whom this page follows, or followed until the user moved the camera. */
  setFollow(state: FollowState | null): void {
    this.#follow = state;
    this.#draw();
  }

  /** The room's roster as read whole. */
  reset(peers: readonly RoomPeer[]): void {
    const members = peers.filter(isMember);
    this.#peers = new Map(members.map((peer) => [peer.id, peer]));
    this.#draw();
    this.#hooks.changed(members);
  }

  /** One join or leave. */
  change(change: PresenceChange): void {
    if (!isMember(change.peer)) return;
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
    // Only a page or a headset has a camera to follow.
    else if (this.#hooks.follow && (peer.kind === 'page' || peer.kind === 'headset')) entry.append(this.#button(peer, this.#hooks.follow));
    return entry;
  }

  #button(peer: RoomPeer, follow: (peer: RoomPeer) => void): HTMLButtonElement {
    const state = this.#follow?.peer === peer.id ? this.#follow : null;
    const on = state?.state === 'following';
    return h(
      'button',
      {
        type: 'button',
        class: 'button small follow-peer',
        'data-testid': 'follow-peer',
        'data-state': state?.state ?? 'off',
        'aria-pressed': String(on),
        'aria-label': `${on ? 'Stop following' : 'Follow'} ${peer.name}`,
        title: state?.state === 'ended' ? `Following ${peer.name} ended: ${state.why}` : `Your camera tracks ${peer.name}'s`,
        onclick: () => follow(peer),
      },
      on ? 'Following' : 'Follow',
    );
  }
}
