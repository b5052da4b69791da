/**
 * @module live-presence
 * The page among the others in its room, while it follows the room: once its follower is
 * listed (the room stream's `X-Peer-Id` in the roster) it opens the room's live socket for
 * that peer, sends its own pose (its camera and mouse ray on the page, its head and hands in a
 * headset; pose-sender.ts keeps to 20 a second and to changes) and draws everyone else's
 * (peer-avatars.ts), which go when they leave. Poses are sent only when they change, so a
 * peer seen on the socket for the first time is sent this page's pose again: it would
 * otherwise not see a page that keeps still. "Follow" in the who-is-here list is peer-follow.ts;
 * the peer followed is not drawn meanwhile (its frustum would sit at this page's own eye).
 * Entering or leaving VR opens the socket again saying the kind the page is now (`headset` in
 * VR), so the others' lists show it as what it is; the host lists it again under the same id.
 *
 * A page's own pose as the room sees it: its camera is its head (where it looks from, down its
 * -z), and while the mouse is over the stage its pointer is the ray from the camera through the
 * mouse. Both are said in the room's frame (the content root's), so peers that placed the
 * content elsewhere (a headset's table) see them where they are relative to it. In a headset
 * the pose is read from the session's frame instead: its head (the viewer), each tracked hand
 * (its grip, or where it points when it has no grip) and its pointer (the right hand's ray, else
 * the other's). The frame's reference space is the stage's world.
 */
import * as THREE from 'three';
import type { VitrineClient } from '../../core/client/client.ts';
import type { LiveMessage, Placement, Pose } from '../../core/wire/live-types.ts';
import type { RoomPeer } from '../../core/wire/room-types.ts';
import type { Stage } from '../stage/stage.ts';
import { LiveSocket, type SocketState } from './live-socket.ts';
import { peerColour } from './peer-colour.ts';
import { PeerAvatars } from './peer-avatars.ts';
import { PeerFollow } from './peer-follow.ts';
import { PoseSender } from './pose-sender.ts';
import { installPresenceProbe } from './presence-probe.ts';
import type { WhoIsHere } from './who-is-here.ts';

const FORWARD = new THREE.Vector3(0, 0, -1);

/** A world position and orientation said in the frame of `root`. */
function toRoomPlacement(root: THREE.Object3D, position: THREE.Vector3, orientation: THREE.Quaternion): Placement {
  root.updateMatrixWorld(true);
  const world = new THREE.Matrix4().compose(position, orientation, new THREE.Vector3(1, 1, 1));
  const local = root.matrixWorld.clone().invert().multiply(world);
  const p = new THREE.Vector3();
  const q = new THREE.Quaternion();
  local.decompose(p, q, new THREE.Vector3());
  q.normalize();
  return { position: [p.x, p.y, p.z], orientation: [q.x, q.y, q.z, q.w] };
}

/** The page's pose: its camera, and its pointer when the mouse (`mouse`, client pixels) is over the stage. */
function pagePose(stage: Stage, mouse: { x: number; y: number } | null): Pose {
  const camera = stage.view.camera;
  camera.updateMatrixWorld(true);
  const pose: Pose = { head: toRoomPlacement(stage.contentRoot, camera.position, camera.quaternion) };
  if (mouse) {
    const ray = stage.view.rayAt(stage.canvas, mouse.x, mouse.y).ray;
    const turn = new THREE.Quaternion().setFromUnitVectors(FORWARD, ray.direction.clone().normalize());
    pose.pointer = toRoomPlacement(stage.contentRoot, ray.origin, turn);
  }
  return pose;
}

function placementOf(transform: XRRigidTransform, root: THREE.Object3D): Placement {
  const { position: p, orientation: q } = transform;
  return toRoomPlacement(root, new THREE.Vector3(p.x, p.y, p.z), new THREE.Quaternion(q.x, q.y, q.z, q.w));
}

/** The headset's pose in `frame`, or null when the viewer is not tracked. */
function xrPose(frame: XRFrame, space: XRReferenceSpace, root: THREE.Object3D): Pose | null {
  const viewer = frame.getViewerPose(space);
  if (!viewer) return null;
  const pose: Pose = { head: placementOf(viewer.transform, root) };
  const rays: Partial<Record<XRHandedness, Placement>> = {};
  for (const source of frame.session.inputSources) {
    if (source.handedness === 'none') continue;
    const held = frame.getPose(source.gripSpace ?? source.targetRaySpace, space);
    if (held) (pose.hands ??= {})[source.handedness] = placementOf(held.transform, root);
    const ray = frame.getPose(source.targetRaySpace, space);
    if (ray) rays[source.handedness] = placementOf(ray.transform, root);
  }
  const pointer = rays.right ?? rays.left;
  if (pointer) pose.pointer = pointer;
  return pose;
}

export class LivePresence {
  readonly #client: VitrineClient;
  readonly #stage: Stage;
  readonly #here: WhoIsHere;
  readonly #avatars: PeerAvatars;
  readonly #follow: PeerFollow;
  readonly #sender = new PoseSender((text) => this.#socket?.send(text) ?? false);
  #room: string | null = null;
  #self: string | null = null;
  #socket: LiveSocket | null = null;
  #socketState: SocketState | 'off' = 'off';
  /** This page's peer is in the roster (its socket may open). */
  #listed = false;
  /** Each peer's newest pose and name, as the socket gave them. */
  #latest = new Map<string, { name: string; pose: Pose }>();
  /** Where the mouse is over the stage (client pixels), or null. */
  #mouse: { x: number; y: number } | null = null;

  constructor(client: VitrineClient, stage: Stage, here: WhoIsHere) {
    this.#client = client;
    this.#stage = stage;
    this.#here = here;
    this.#avatars = new PeerAvatars(stage);
    this.#follow = new PeerFollow(stage, () => {
      here.setFollow(this.#follow.state);
      this.#avatars.hide(this.#follow.leader);
    });
    stage.canvas.addEventListener('pointermove', (event) => {
      this.#mouse = { x: event.clientX, y: event.clientY };
      this.#sendOwn(undefined);
    });
    stage.canvas.addEventListener('pointerleave', () => {
      this.#mouse = null;
      this.#sendOwn(undefined);
    });
    stage.onBeforeFrame((frame) => this.#sendOwn(frame));
    // Entering or leaving VR changes what this page is to the others: its socket opens again saying so.
    const relist = (): void => this.#reopen();
    stage.renderer.xr.addEventListener('sessionstart', relist);
    stage.renderer.xr.addEventListener('sessionend', relist);
    installPresenceProbe(() => ({
      self: this.#self,
      socket: this.#socketState,
      sent: this.#sender.sent,
      camera: stage.view.camera,
      following: this.#follow.state,
      peers: this.#avatars.ids().map((id) => {
        return { id, name: this.#latest.get(id)?.name ?? '', colour: peerColour(id), avatar: this.#avatars.get(id)! };
      }),
    }));
  }

  /** A peer leads the camera: the room's shared camera is not applied meanwhile. */
  get leading(): boolean {
    return this.#follow.leader !== null;
  }

  /** The room's stream (re)connected as peer `id` of `room`: a new peer, so a new socket once it is listed. */
  streamOpened(room: string, id: string | null): void {
    if (id === this.#self && room === this.#room) return;
    this.stop();
    this.#room = room;
    this.#self = id;
    this.#here.setSelf(id);
  }

  /** What this page is to the others: a headset while in VR, else a page. */
  get kind(): 'page' | 'headset' {
    return this.#stage.renderer.xr.isPresenting ? 'headset' : 'page';
  }

  /** Who is here changed (`left`: who left): the socket opens once this page is listed. */
  roster(peers: readonly RoomPeer[], left?: RoomPeer): void {
    if (left) this.#gone(left.id);
    this.#listed = this.#self !== null && peers.some((peer) => peer.id === this.#self);
    this.#open();
  }

  /** Opens the live socket for this page's peer once it is listed, saying the kind it is now. */
  #open(): void {
    const room = this.#room;
    const self = this.#self;
    if (this.#socket || room === null || self === null || !this.#listed) return;
    const kind = this.kind;
    this.#socket = new LiveSocket({
      url: () => this.#client.liveUrl(room, { peer: self, kind }),
      message: (message) => this.#message(message),
      state: (state) => this.#socketChanged(state),
    });
  }

  /** The socket again, as the kind the page is now (listed again under the same peer id). */
  #reopen(): void {
    if (!this.#socket) return;
    this.#socket.close();
    this.#socket = null;
    this.#socketState = 'off';
    this.#open();
  }

  /** The user pressed `peer`'s Follow button: follows it, or stops when it is followed already. */
  toggleFollow(peer: RoomPeer): void {
    if (this.#follow.leader === peer.id) return this.#follow.stop();
    this.#follow.start(peer.id, peer.name, this.#latest.get(peer.id)?.pose ?? null);
  }

  /** Following the room stopped or moved to another room: the socket closes and the others go. */
  stop(): void {
    this.#socket?.close();
    this.#socket = null;
    this.#socketState = 'off';
    this.#room = null;
    this.#self = null;
    this.#listed = false;
    this.#here.setSelf(null);
    this.#follow.stop();
    this.#forgetOthers();
  }

  #message(message: LiveMessage): void {
    if (message.type === 'leave') return this.#gone(message.peer);
    if (message.type !== 'pose') return;
    const known = this.#latest.has(message.peer);
    this.#latest.set(message.peer, { name: message.name, pose: message.pose });
    this.#avatars.show(message.peer, peerColour(message.peer), message.pose);
    this.#follow.pose(message.peer, message.pose);
    if (!known) this.#resend();
  }

  #socketChanged(state: SocketState): void {
    this.#socketState = state;
    if (state === 'open') this.#resend();
    // A dropped socket hears nobody: what it showed of them is stale.
    if (state === 'closed') this.#forgetOthers();
  }

  #gone(id: string): void {
    this.#latest.delete(id);
    this.#avatars.remove(id);
    this.#follow.left(id);
  }

  #forgetOthers(): void {
    this.#latest.clear();
    this.#avatars.clear();
  }

  /** This page's pose goes out again even if unchanged. */
  #resend(): void {
    this.#sender.reset();
    if (!this.#stage.renderer.xr.isPresenting) this.#sendOwn(undefined);
  }

  /** This page's pose now: from the headset's frame in a session, else its camera and mouse. */
  #sendOwn(frame: XRFrame | undefined): void {
    if (this.#socketState !== 'open') return;
    const { renderer, contentRoot } = this.#stage;
    if (!renderer.xr.isPresenting) return this.#sender.update(pagePose(this.#stage, this.#mouse));
    const space = renderer.xr.getReferenceSpace();
    const pose = frame && space ? xrPose(frame, space, contentRoot) : null;
    if (pose) this.#sender.update(pose);
  }
}
