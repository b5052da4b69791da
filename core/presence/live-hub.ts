/**
 * @module live-hub
 * A host's live sockets, by room: each peer's poses checked (parsePose), held to their rate
 * (poseRate), stamped with who sent them and when, and offered to every other peer of the
 * room on this host (live-receiver.ts: newest-wins per sender) and, through the relay, on every
 * other host. A socket that stops answering pings is closed (socket-heartbeat.ts), so a peer
 * that vanished without a word leaves within 5 s.
 *
 * What a peer may send on a room's live socket: one pose a frame, as JSON text, with any of
 * its head, its two hands and its pointer, each a position (metres) and an orientation (a unit
 * quaternion x, y, z, w), and an optional `t` of its own clock (echoed, so a sender can time
 * the way round). Every number finite and bounded, nothing else in it: a pose is checked whole
 * before anyone else sees it, and what fails closes the socket with the reason.
 */
import type { WebSocket } from 'ws';
import { LiveReceiver } from './live-receiver.ts';
import type { LiveRelay } from './live-relay.ts';
import { keepAlive } from './socket-heartbeat.ts';
import type { Peer } from './peer.ts';
import type { Placement, Pose } from '../wire/live-types.ts';

/** A frame longer than this is refused (a pose is well under 1 KiB). */
const MAX_POSE_BYTES = 4096;
/** Coordinates beyond this many metres are refused. */
const MAX_COORDINATE = 1e6;

/** Why a frame is refused, said to the peer as the close reason. */
class PoseError extends Error {}

function vector(value: unknown, length: number, path: string): number[] {
  if (!Array.isArray(value) || value.length !== length) throw new PoseError(`${path} must be ${length} numbers`);
  for (const [i, n] of value.entries()) {
    if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > MAX_COORDINATE) throw new PoseError(`${path}[${i}] must be a finite number within ±1e6`);
  }
  return value as number[];
}

function only(value: unknown, keys: readonly string[], path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PoseError(`${path} must be an object`);
  for (const key of Object.keys(value)) if (!keys.includes(key)) throw new PoseError(`${path}.${key.slice(0, 32)} is not part of a pose`);
  return value as Record<string, unknown>;
}

function placement(value: unknown, path: string): Placement {
  const fields = only(value, ['position', 'orientation'], path);
  return {
    position: vector(fields.position, 3, `${path}.position`) as Placement['position'],
    orientation: vector(fields.orientation, 4, `${path}.orientation`) as Placement['orientation'],
  };
}

/** The pose a frame holds, checked whole. @throws PoseError naming the first thing wrong. */
function parsePose(text: string): Pose {
  if (text.length > MAX_POSE_BYTES) throw new PoseError(`a pose frame holds at most ${MAX_POSE_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PoseError('a pose frame is one JSON object');
  }
  const fields = only(raw, ['head', 'hands', 'pointer', 't'], 'pose');
  const pose: Pose = {};
  if (fields.head !== undefined) pose.head = placement(fields.head, 'head');
  if (fields.pointer !== undefined) pose.pointer = placement(fields.pointer, 'pointer');
  if (fields.hands !== undefined) {
    const hands = only(fields.hands, ['left', 'right'], 'hands');
    pose.hands = {};
    if (hands.left !== undefined) pose.hands.left = placement(hands.left, 'hands.left');
    if (hands.right !== undefined) pose.hands.right = placement(hands.right, 'hands.right');
  }
  if (fields.t !== undefined) {
    if (typeof fields.t !== 'number' || !Number.isFinite(fields.t)) throw new PoseError('t must be a finite number');
    pose.t = fields.t;
  }
  return pose;
}

/** WebSocket close codes the hub gives. */
export const CLOSE = { invalid: 1007, policy: 1008, tooBig: 1009, unsupported: 1003, away: 1001 } as const;

/**
 * How fast a peer may send poses: 20 a second, with a burst of 10 for a jittery clock. A pose
 * beyond the rate is dropped; a sender that keeps going (20 dropped more than it was allowed)
 * is told to stop by closing its socket.
 */
const MAX_POSES_PER_SECOND = 20;
const BURST = 10;
const TOLERATED_EXCESS = 20;

/** One peer's rate: each pose taken says 'pass', 'drop' (over the rate) or 'close' (far over it). */
function poseRate(): () => 'pass' | 'drop' | 'close' {
  let tokens = BURST;
  let at = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(BURST, tokens + ((now - at) / 1000) * MAX_POSES_PER_SECOND);
    at = now;
    tokens -= 1;
    if (tokens >= 0) return 'pass';
    return tokens < -TOLERATED_EXCESS ? 'close' : 'drop';
  };
}

/** A text frame's text, whichever form ws hands it in. */
function textOf(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

interface Member {
  peer: Peer;
  receiver: LiveReceiver;
}

export class LiveHub {
  #rooms = new Map<string, Map<string, Member>>();
  #relay: LiveRelay | null;

  constructor(relay: LiveRelay | null) {
    this.#relay = relay;
    relay?.onFrame((roomId, sender, frame) => this.#deliver(roomId, sender, frame));
  }

  /** How many live sockets this host holds. */
  get size(): number {
    let n = 0;
    for (const members of this.#rooms.values()) n += members.size;
    return n;
  }

  /** Serves `socket` as `peer` of the room until it closes; `onGone` runs once when it does (`silent`: its heartbeat was lost). */
  attach(roomId: string, peer: Peer, socket: WebSocket, onGone: (silent: boolean) => void): void {
    let members = this.#rooms.get(roomId);
    if (!members) this.#rooms.set(roomId, (members = new Map()));
    const member = { peer, receiver: new LiveReceiver(socket) };
    members.set(peer.id, member);
    const rate = poseRate();
    let silent = false;
    // Any pong says the peer is there (flow pings' too: a slow link answers them before heartbeats).
    keepAlive(socket, () => void (silent = true));
    socket.on('message', (data, isBinary) => this.#received(roomId, peer, socket, rate, data, isBinary));
    socket.once('close', () => {
      // Only its own place: a follower's socket opened again (a page entering VR) holds the id now.
      if (members.get(peer.id) === member) members.delete(peer.id);
      if (members.size === 0 && this.#rooms.get(roomId) === members) this.#rooms.delete(roomId);
      onGone(silent);
    });
    socket.send(JSON.stringify({ type: 'welcome', peer }));
  }

  #received(roomId: string, peer: Peer, socket: WebSocket, rate: ReturnType<typeof poseRate>, data: unknown, isBinary: boolean): void {
    if (isBinary) return socket.close(CLOSE.unsupported, 'poses are JSON text frames');
    const text = textOf(data);
    const verdict = rate();
    if (verdict === 'close') return socket.close(CLOSE.policy, `poses faster than ${MAX_POSES_PER_SECOND} a second`);
    let pose;
    try {
      pose = parsePose(text);
    } catch (error) {
      if (error instanceof PoseError) return socket.close(text.length > MAX_POSE_BYTES ? CLOSE.tooBig : CLOSE.invalid, error.message.slice(0, 120));
      throw error;
    }
    if (verdict === 'drop') return;
    // `ts`: when the host took it, to a hundredth of a millisecond (how long it spent on its way).
    const ts = Math.round((performance.timeOrigin + performance.now()) * 100) / 100;
    const frame = JSON.stringify({ type: 'pose', peer: peer.id, name: peer.name, kind: peer.kind, ts, pose });
    this.#deliver(roomId, peer.id, frame);
    this.#relay?.publish(roomId, peer.id, frame);
  }

  #deliver(roomId: string, sender: string, frame: string): void {
    const members = this.#rooms.get(roomId);
    if (!members) return;
    for (const [id, member] of members) if (id !== sender) member.receiver.offer(sender, frame);
  }

  /** Tells this host's live peers of the room that `peerId` left (their avatar goes). */
  gone(roomId: string, peerId: string): void {
    const members = this.#rooms.get(roomId);
    if (!members) return;
    const frame = JSON.stringify({ type: 'leave', peer: peerId });
    for (const [id, member] of members) if (id !== peerId && member.receiver.socket.readyState === 1) member.receiver.socket.send(frame);
  }

  async close(): Promise<void> {
    for (const members of this.#rooms.values()) for (const member of members.values()) member.receiver.socket.close(CLOSE.away, 'the host is shutting down');
    this.#rooms.clear();
    await this.#relay?.close();
  }
}
