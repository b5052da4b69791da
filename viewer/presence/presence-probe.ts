/**
 * @module presence-probe
 * What a test reads of the others on this page's stage (`window.vitrinePresence`): which peer
 * this page is, its socket, how many poses it sent, where its camera is and whom it follows,
 * and each peer drawn with where its head, hands and pointer are in the world. It changes nothing.
 */
import * as THREE from 'three';
import type { FollowState } from './peer-follow.ts';
import type { PeerAvatar } from './peer-avatar.ts';
import type { SocketState } from './live-socket.ts';

type Triple = [number, number, number];

export interface PresenceProbeState {
  self: string | null;
  socket: SocketState | 'off';
  sent: number;
  camera: { position: Triple; forward: Triple };
  following: FollowState | null;
  peers: {
    id: string;
    name: string;
    colour: string;
    /** False while hidden (the peer this page follows). */
    visible: boolean;
    /** False while its head is not drawn (not known, or at this page's eye). */
    headShown: boolean;
    head: Triple | null;
    hands: ('left' | 'right')[];
    pointer: { from: Triple; to: Triple } | null;
  }[];
}

/** What the probe reads, as it is at the moment (live-presence.ts gives it). */
export interface ProbedPresence extends Pick<PresenceProbeState, 'self' | 'socket' | 'sent' | 'following'> {
  camera: THREE.Camera;
  peers: { id: string; name: string; colour: string; avatar: PeerAvatar }[];
}

declare global {
  interface Window {
    vitrinePresence?: { state(): PresenceProbeState };
  }
}

const triple = (v: THREE.Vector3): Triple => [v.x, v.y, v.z];

export function installPresenceProbe(read: () => ProbedPresence): void {
  window.vitrinePresence = {
    state: () => {
      const { camera, peers, ...rest } = read();
      camera.updateMatrixWorld(true);
      const forward = camera.getWorldDirection(new THREE.Vector3());
      return {
        ...rest,
        camera: { position: triple(camera.position), forward: triple(forward) },
        peers: peers.map(({ id, name, colour, avatar }) => ({
          id,
          name,
          colour,
          visible: avatar.root.visible,
          headShown: avatar.headShown,
          head: avatar.head ? triple(avatar.head) : null,
          hands: avatar.hands,
          pointer: avatar.pointer ? { from: triple(avatar.pointer.from), to: triple(avatar.pointer.to) } : null,
        })),
      };
    },
  };
}
