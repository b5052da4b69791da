/**
 * @module live-relay
 * How a pose reaches the other hosts of a service: published once by the host its sender is
 * on, delivered by every other host to its own peers of the room. A lone host has none. The
 * Redis one (redis-live-relay.ts) is beside it.
 */

/** A pose frame from another host: its room, its sender and the frame as its receivers get it. */
export type RelayedFrame = (roomId: string, sender: string, frame: string) => void;

export interface LiveRelay {
  publish(roomId: string, sender: string, frame: string): void;
  /** Calls `listener` with each frame another host published. */
  onFrame(listener: RelayedFrame): void;
  close(): Promise<void>;
}
