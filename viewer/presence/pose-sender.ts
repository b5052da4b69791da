/**
 * @module pose-sender
 * This peer's own pose on its way out: at most one frame every 50 ms (the host's 20 a second),
 * and only when it changed. A change that comes too soon waits for its turn, and only the
 * newest such change is sent then. Numbers are rounded first, so a pose that moved by less
 * than a rounding step counts as unchanged.
 */
import type { Placement, Pose } from '../../core/wire/live-types.ts';

/** The shortest gap between two frames sent. */
export const POSE_GAP_MS = 50;

/** Six significant digits of a position (whatever the room's unit), four decimals of a unit quaternion. */
function rounded(placement: Placement): Placement {
  return {
    position: placement.position.map((n) => Number(n.toPrecision(6))) as Placement['position'],
    orientation: placement.orientation.map((n) => Number(n.toFixed(4))) as Placement['orientation'],
  };
}

/** The pose as it is sent (rounded), as JSON. */
export function poseText(pose: Pose): string {
  const out: Pose = {};
  if (pose.head) out.head = rounded(pose.head);
  if (pose.hands?.left || pose.hands?.right) {
    out.hands = {};
    if (pose.hands.left) out.hands.left = rounded(pose.hands.left);
    if (pose.hands.right) out.hands.right = rounded(pose.hands.right);
  }
  if (pose.pointer) out.pointer = rounded(pose.pointer);
  return JSON.stringify(out);
}

export class PoseSender {
  readonly #send: (text: string) => boolean;
  #lastText = '';
  #lastAt = -Infinity;
  #waiting: string | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Frames sent so far. */
  sent = 0;

  /** `send` puts a frame on the socket; false when none is open (the frame is then not counted as sent). */
  constructor(send: (text: string) => boolean) {
    this.#send = send;
  }

  /** The pose now: sent at once, after the gap, or not at all when it did not change. */
  update(pose: Pose): void {
    const text = poseText(pose);
    if (text === this.#lastText && this.#waiting === null) return;
    this.#waiting = text === this.#lastText ? null : text;
    if (this.#waiting === null || this.#timer !== null) return;
    const wait = this.#lastAt + POSE_GAP_MS - performance.now();
    if (wait <= 0) this.#flush();
    else this.#timer = setTimeout(() => this.#flush(), wait);
  }

  /** A new socket: the next pose goes out even if unchanged. */
  reset(): void {
    this.#lastText = '';
    this.#waiting = null;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #flush(): void {
    this.#timer = null;
    const text = this.#waiting;
    this.#waiting = null;
    if (text === null || !this.#send(text)) return;
    this.#lastText = text;
    this.#lastAt = performance.now();
    this.sent++;
  }
}
