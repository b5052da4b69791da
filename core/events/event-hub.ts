/**
 * @module event-hub
 * EventHub: named channels of host events that Server-Sent Events streams (event-stream.ts)
 * and anything else in the host subscribe to (their names: channels.ts). Publishing never waits for subscribers; a
 * listener that throws is dropped, not the publisher. One hub per host.
 *
 * @example
 * const off = hub.subscribe('host', (e) => console.log(e.event, e.data));
 * hub.publish('host', { event: 'reload', data: { plugin: 'shapes' } });
 */

import { isRoomChannel, stampedData } from './acting-user.ts';

/** One event: its SSE `event:` name, JSON data, and an optional `id:`. */
export interface HostEvent {
  event: string;
  data: unknown;
  id?: string;
}

/** A room event stamped with who made it (acting-user.ts), the same object when nothing is added. */
function withBy(event: HostEvent): HostEvent {
  const data = stampedData(event.event, event.data);
  return data === event.data ? event : { ...event, data };
}

export type HostEventListener = (event: HostEvent) => void;

export class EventHub {
  #channels = new Map<string, Set<HostEventListener>>();
  #taps = new Set<(channel: string, event: HostEvent) => void>();

  /** Sends `event` to every current subscriber of `channel`; returns how many got it. */
  publish(channel: string, given: HostEvent): number {
    const event = isRoomChannel(channel) ? withBy(given) : given;
    for (const tap of this.#taps) {
      try {
        tap(channel, event);
      } catch {
        this.#taps.delete(tap);
      }
    }
    const listeners = this.#channels.get(channel);
    if (!listeners) return 0;
    let delivered = 0;
    for (const listener of [...listeners]) {
      try {
        listener(event);
        delivered++;
      } catch {
        listeners.delete(listener);
      }
    }
    return delivered;
  }

  /** Calls `listener` for each later event of `channel`; returns the unsubscribe function. */
  subscribe(channel: string, listener: HostEventListener): () => void {
    let listeners = this.#channels.get(channel);
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#channels.get(channel) === listeners) this.#channels.delete(channel);
    };
  }

  /**
   * Calls `listener` with every event of every channel, subscribed or not (a watcher of all
   * rooms, e.g. scenes following their rooms' entries); returns the unsubscribe function.
   */
  tap(listener: (channel: string, event: HostEvent) => void): () => void {
    this.#taps.add(listener);
    return () => void this.#taps.delete(listener);
  }

  /** The channels with at least one listener whose names start with `prefix`. */
  channels(prefix = ''): string[] {
    return [...this.#channels.keys()].filter((name) => name.startsWith(prefix));
  }

  /** How many listeners `channel` has. */
  listenerCount(channel: string): number {
    return this.#channels.get(channel)?.size ?? 0;
  }
}
