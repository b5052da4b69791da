/**
 * @module peer-avatars
 * The other peers on the stage: each one's avatar (peer-avatar.ts) in its colour, placed anew
 * with each pose it sends and gone when it leaves. They hang in the stage's scene, not among
 * the layers: nothing picks them, frames them or measures them. On a page a head is sized to
 * what is shown, in a headset it is a real head's size. A pointer ray reaches to what it
 * points at on this stage (the first thing along it), or about as far as the content is when
 * it points at nothing. Each is placed again when the content moves under it (a headset's
 * hands grab it, a session starts or ends). A head at this page's own eye is not drawn: pages
 * sharing the room's camera all stand there. The canvas lists who is drawn (`data-peers`).
 */
import * as THREE from 'three';
import type { Pose } from '../../core/wire/live-types.ts';
import type { Stage } from '../stage/stage.ts';
import { PeerAvatar } from './peer-avatar.ts';

/** A head's size as a share of the shown content's radius (on a page). */
const PAGE_HEAD = 0.35;
/** A head's size in a headset, metres. */
const VR_HEAD = 0.25;

export class PeerAvatars {
  readonly #stage: Stage;
  readonly #group = new THREE.Group();
  readonly #avatars = new Map<string, { avatar: PeerAvatar; pose: Pose }>();
  /** The peer not drawn (the one this page follows), or null. */
  #hidden: string | null = null;
  /** Where the content root was, and whether in a headset, when the avatars were last placed. */
  #placedFor = '';

  constructor(stage: Stage) {
    this.#stage = stage;
    this.#group.name = 'peers';
    stage.scene.add(this.#group);
    this.#mark();
    stage.onBeforeFrame(() => this.#beforeFrame());
  }

  /** Draws peer `id` (of `colour`) at `pose`. */
  show(id: string, colour: string, pose: Pose): void {
    let drawn = this.#avatars.get(id);
    if (!drawn) {
      drawn = { avatar: new PeerAvatar(colour), pose };
      drawn.avatar.root.name = `peer ${id}`;
      drawn.avatar.root.visible = id !== this.#hidden;
      this.#avatars.set(id, drawn);
      this.#group.add(drawn.avatar.root);
      this.#mark();
    }
    // A pose that moves nothing drawn (a head at this page's eye, as every page sharing the
    // room's camera sends) asks for no frame: a room of followers would redraw at their rate.
    const drewAnything = drawn.avatar.drawsAnything;
    drawn.pose = pose;
    this.#place(drawn.avatar, pose);
    this.#hideHeadsAtEye([drawn.avatar]);
    if (drewAnything || drawn.avatar.drawsAnything) this.#stage.invalidate();
  }

  /** Peer `id` is gone. */
  remove(id: string): void {
    const drawn = this.#avatars.get(id);
    if (!drawn) return;
    drawn.avatar.dispose();
    this.#avatars.delete(id);
    this.#mark();
    this.#stage.invalidate();
  }

  /** Everyone is gone (the page left the room, or its socket dropped). */
  clear(): void {
    for (const id of [...this.#avatars.keys()]) this.remove(id);
  }

  /** Draws everyone but `id` (null: everyone). */
  hide(id: string | null): void {
    this.#hidden = id;
    for (const [peer, { avatar }] of this.#avatars) avatar.root.visible = peer !== id;
    this.#stage.invalidate();
  }

  /** The peers drawn, in the order they came. */
  ids(): string[] {
    return [...this.#avatars.keys()];
  }

  /** The avatar of peer `id`, as last placed. */
  get(id: string): PeerAvatar | null {
    return this.#avatars.get(id)?.avatar ?? null;
  }

  #place(avatar: PeerAvatar, pose: Pose): void {
    const root = this.#stage.contentRoot;
    root.updateMatrixWorld(true);
    avatar.place(pose, root.matrixWorld, this.#size(), (origin, direction) => this.#reach(origin, direction));
  }

  /** Before a frame: everyone placed again if the content moved or a session began or ended; heads at the eye hidden. */
  #beforeFrame(): void {
    this.#placeAgain();
    this.#hideHeadsAtEye([...this.#avatars.values()].map(({ avatar }) => avatar));
  }

  #hideHeadsAtEye(avatars: PeerAvatar[]): void {
    const eye = this.#stage.view.camera.getWorldPosition(new THREE.Vector3());
    const within = this.#size() * 1.5;
    for (const avatar of avatars) avatar.hideHeadNear(eye, within);
  }

  #placeAgain(): void {
    const root = this.#stage.contentRoot;
    root.updateMatrixWorld(true);
    const placedFor = `${this.#stage.renderer.xr.isPresenting} ${root.matrixWorld.elements.join(' ')}`;
    if (placedFor === this.#placedFor) return;
    this.#placedFor = placedFor;
    for (const { avatar, pose } of this.#avatars.values()) this.#place(avatar, pose);
  }

  #size(): number {
    if (this.#stage.renderer.xr.isPresenting) return VR_HEAD;
    const box = this.#stage.layers.box();
    return box.isEmpty() ? PAGE_HEAD : box.getBoundingSphere(new THREE.Sphere()).radius * PAGE_HEAD;
  }

  /** How far a ray reaches: to the first thing on the stage along it, else to the content's depth along it. */
  #reach(origin: THREE.Vector3, direction: THREE.Vector3): number {
    const ray = new THREE.Raycaster(origin, direction);
    const hit = this.#stage.pickRay(ray);
    if (hit) return hit.distance;
    // The layers' box is in the content root's frame: the ray is in the world's.
    const box = this.#stage.layers.box().applyMatrix4(this.#stage.contentRoot.matrixWorld);
    const depth = box.isEmpty() ? 0 : box.getCenter(new THREE.Vector3()).sub(origin).dot(direction);
    return depth > 0 ? depth : this.#size() * 4;
  }

  #mark(): void {
    this.#stage.canvas.dataset.peers = [...this.#avatars.keys()].join(' ');
  }
}
