/**
 * @module peer-follow
 * "Follow <name>": this page's camera goes where a leader's head is and looks where it looks,
 * with each pose the leader sends, until the user moves the camera (a drag, a wheel turn) or
 * the leader leaves; following then ends and says why. The camera orbits, after that, about
 * the point on its view axis as deep as the content's centre. Nothing is followed while this
 * page is in a headset (the head leads there), and a leader's roll is not taken: the page's
 * camera keeps its up.
 */
import * as THREE from 'three';
import type { Pose } from '../../core/wire/live-types.ts';
import type { Stage } from '../stage/stage.ts';
import { inWorld } from './peer-avatar.ts';

export interface FollowState {
  peer: string;
  name: string;
  /** `ended`: the user moved the camera or the leader left (`why` says which). */
  state: 'following' | 'ended';
  why?: string;
}

export class PeerFollow {
  readonly #stage: Stage;
  readonly #changed: () => void;
  #state: FollowState | null = null;

  /** `changed` is told each time following starts or ends. */
  constructor(stage: Stage, changed: () => void) {
    this.#stage = stage;
    this.#changed = changed;
    stage.view.onMoved(() => this.#end('you moved the camera'));
  }

  get state(): FollowState | null {
    return this.#state;
  }

  /** The peer followed now, or null. */
  get leader(): string | null {
    return this.#state?.state === 'following' ? this.#state.peer : null;
  }

  /** Follows `peer` (named `name`), going at once to `latest`, its newest pose, when known. */
  start(peer: string, name: string, latest: Pose | null): void {
    this.#state = { peer, name, state: 'following' };
    this.#changed();
    if (latest) this.pose(peer, latest);
  }

  /** Stops following (the user pressed the button again): nothing is said. */
  stop(): void {
    if (!this.#state) return;
    this.#state = null;
    this.#changed();
  }

  /** Peer `peer` left the room. */
  left(peer: string): void {
    if (this.leader === peer) this.#end(`${this.#state!.name} left`);
  }

  /** A pose of peer `peer`: the camera goes to its head when it leads. */
  pose(peer: string, pose: Pose): void {
    if (this.leader !== peer || !pose.head || this.#stage.renderer.xr.isPresenting) return;
    const root = this.#stage.contentRoot;
    root.updateMatrixWorld(true);
    const { position, orientation } = inWorld(pose.head, root.matrixWorld);
    const forward = new THREE.Vector3(0, 0, -1).applyQuaternion(orientation);
    const view = this.#stage.view;
    const box = this.#stage.layers.box().applyMatrix4(root.matrixWorld);
    const depth = box.isEmpty() ? 0 : box.getCenter(new THREE.Vector3()).sub(position).dot(forward);
    const distance = depth > 1e-6 ? depth : Math.max(view.camera.position.distanceTo(view.controls.target), 1e-3);
    const target = position.clone().addScaledVector(forward, distance);
    const triple = (v: THREE.Vector3): [number, number, number] => [v.x, v.y, v.z];
    view.setView({ position: triple(position), target: triple(target), up: triple(view.camera.up) });
    this.#stage.invalidate();
  }

  #end(why: string): void {
    if (this.#state?.state !== 'following') return;
    this.#state = { ...this.#state, state: 'ended', why };
    this.#changed();
  }
}
