/**
 * @module client-options
 * What `VitrineClient` and its calls take: the client's own options (host, fetch, token) and
 * those of a data request (and the query they make) and of an `/invoke`. Kept apart from the
 * client so its file holds the routes alone.
 */
import type { FetchLike } from './transport.ts';
import type { DeliveryQuery } from '../wire/wire-types.ts';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The host's address, e.g. `http://127.0.0.1:8000`. @defaultValue `''` (same origin, browsers only) */
  baseUrl?: string;
  /** The fetch implementation. @defaultValue the global `fetch` */
  fetch?: FetchLike;
  /** A vendor envelope media type the host was started with (`--envelope-media-type`), if unusual. */
  envelopeMediaType?: string;
  /**
   * The host's admin token (`admin token: <T>` at its start), sent as `Authorization: Bearer`:
   * a host bound beyond loopback asks for it on writes (publishing, a room's entry, view and scene).
   */
  token?: string;
}

/** Parameters and room of one specimen data request. */
export interface DataOptions {
  /** Function parameters; omitted means the schema defaults. */
  params?: Record<string, unknown>;
  /** The room whose cache serves the result. @defaultValue `service` (host side) */
  room?: string;
  signal?: AbortSignal;
  /** POST sends params in the body (no URL length limit). @defaultValue `'GET'` */
  method?: 'GET' | 'POST';
  /** How the result travels (`format`, `compress`, ...): never part of the cache key. */
  delivery?: DeliveryQuery;
  /** Called with the answer once its status and headers have come, before its body is read. */
  onHeaders?: (response: Response) => void;
  /**
   * This reads what the room shows because a peer put it there (a follower catching up), not
   * something asked of the room: its hit never keeps a peer's newer value from the room.
   */
  follows?: boolean;
}

/** Arguments of one `/invoke`. */
export interface InvokeOptions {
  /** Positional arguments, mapped onto the parameters in order. */
  args?: unknown[];
  kwargs?: Record<string, unknown>;
  room?: string;
  signal?: AbortSignal;
}

/** The query of `GET /data`: the params as JSON, the room, the delivery options. */
export function dataQuery({ params, room, delivery }: Pick<DataOptions, 'params' | 'room' | 'delivery'>): Record<string, string | number | undefined> {
  return { params: params ? JSON.stringify(params) : undefined, room_id: room, ...delivery };
}
