/**
 * @module live-pose
 * What a peer may send on a room's live socket: one pose a frame, as JSON text, with any of
 * its head, its two hands and its pointer, each a position (metres) and an orientation (a unit
 * quaternion x, y, z, w), and an optional `t` of its own clock (echoed, so a sender can time
 * the way round). Every number finite and bounded, nothing else in it: a pose is checked whole
 * before anyone else sees it, and what fails closes the socket with the reason.
 */
import type { Placement, Pose } from '../wire/live-types.ts';

/** A frame longer than this is refused (a pose is well under 1 KiB). */
export const MAX_POSE_BYTES = 4096;
/** Coordinates beyond this many metres are refused. */
const MAX_COORDINATE = 1e6;

/** Why a frame is refused, said to the peer as the close reason. */
export class PoseError extends Error {}

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
export function parsePose(text: string): Pose {
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
