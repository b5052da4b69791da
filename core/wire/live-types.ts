/**
 * @module live-types
 * What travels on a room's live socket, as both the host and its clients speak it: a peer
 * sends poses (its head, hands and pointer ray, each a position in the room's physical frame
 * and an orientation as a unit quaternion x, y, z, w; a ray points down its own -z), and hears
 * a welcome naming itself, everyone else's newest poses, and who left.
 */

export interface Placement {
  position: [number, number, number];
  orientation: [number, number, number, number];
}

/** One frame a peer sends; each part it leaves out is not shown for it. */
export interface Pose {
  head?: Placement;
  hands?: { left?: Placement; right?: Placement };
  pointer?: Placement;
  /** The sender's own clock, echoed (a sender may time the way round). */
  t?: number;
}

/** The peer a live socket is, as its welcome names it. */
export interface LivePeer {
  id: string;
  name: string;
  kind: 'page' | 'headset' | 'notebook' | 'agent';
}

/** What a live socket hears. */
export type LiveMessage =
  | { type: 'welcome'; peer: LivePeer & { user: string; since: number } }
  | { type: 'pose'; peer: string; name: string; kind: LivePeer['kind']; ts: number; pose: Pose }
  | { type: 'leave'; peer: string };
