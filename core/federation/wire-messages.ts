/**
 * @module wire-messages
 * The JSON control messages of the federation channel (see PROTOCOL.md), its constants and
 * close codes. Binary frames carry raw payload bytes of the request named by the last `bytes`
 * message (see PROTOCOL.md).
 */
import type { CatalogEntry } from '../wire/wire-types.ts';
import type { ManifestFunction } from '../registry/manifest-types.ts';

/** Bumped on any incompatible change; a relay refuses a worker speaking another version. */
export const PROTOCOL_VERSION = 3;

/**
 * The upgrade's header a worker shows the relay's token in. Not `Authorization`: the host reads
 * that one as a user's token.
 */
export const TOKEN_HEADER = 'x-vitrine-relay-token';

/** Payload bytes per binary frame. */
export const CHUNK_BYTES = 1024 * 1024;

/** Largest WebSocket message accepted (a chunk, or a registration with many schemas). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * Bytes a sender may have in flight per stream before the receiver acknowledges them. 32 MiB
 * keeps a loopback or LAN link busy while the receiver is also writing to its HTTP clients
 * (at 8 MiB the worker spent most of a 256 MiB transfer waiting for acks).
 */
export const STREAM_WINDOW_BYTES = 32 * CHUNK_BYTES;

/**
 * The window for payloads streamed on to an HTTP client as they come (files): what a slow
 * client leaves waiting in the relay is bounded by it.
 */
export const STREAMED_WINDOW_BYTES = 8 * CHUNK_BYTES;

/** Ping interval; a peer that answers no ping for HEARTBEAT_DEAD_MS is dropped. */
export const HEARTBEAT_INTERVAL_MS = 3000;
export const HEARTBEAT_DEAD_MS = 9000;

/** Close codes sent by the relay (4000-4999 are application codes). */
export type CloseCode = 4001 | 4002 | 4003 | 4004;
export const CLOSE_UNAUTHORIZED: CloseCode = 4001;
export const CLOSE_BAD_VERSION: CloseCode = 4002;
export const CLOSE_REPLACED: CloseCode = 4003;
export const CLOSE_BAD_HELLO: CloseCode = 4004;

/**
 * Close codes after which a worker does not retry: it would be refused again, or another
 * process now serves under its id (retrying would make the two replace each other forever).
 */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([CLOSE_UNAUTHORIZED, CLOSE_BAD_VERSION, CLOSE_REPLACED, CLOSE_BAD_HELLO]);

/** An error as it crosses the wire: enough to rebuild the same HTTP answer on the other side. */
export interface WireError {
  status: number;
  code: string;
  message: string;
}

/** A function as a worker registers it: as its manifest lists it, and the plugin it came from. */
export interface WireFunction extends Pick<ManifestFunction, 'name' | 'return_type' | 'schema' | 'parameters' | 'async'> {
  plugin: string | null;
}

/**
 * A specimen as a worker registers it: a catalog entry's own fields, and what the relay serves
 * it from (its effective schema for dynamic ones).
 */
export interface WireSpecimen extends Pick<CatalogEntry, 'id' | 'display_name' | 'description' | 'type' | 'tags' | 'is_dynamic' | 'function_name'> {
  thumbnail_file: string | null;
  story: string | null;
  schema: Record<string, unknown> | null;
  has_data: boolean;
}

export type WireMessage =
  | { t: 'hello'; version: number; worker_id: string }
  | { t: 'welcome'; version: number; relay: string }
  | { t: 'register'; specimens: WireSpecimen[]; functions: WireFunction[] }
  | { t: 'req'; id: number; op: string; body: Record<string, unknown>; window?: number }
  | { t: 'res'; id: number; ok: true; body: Record<string, unknown>; bytes?: number }
  | { t: 'res'; id: number; ok: false; error: WireError }
  | { t: 'event'; id: number; body: Record<string, unknown> }
  | { t: 'cancel'; id: number }
  | { t: 'ack'; id: number; bytes: number }
  /** The binary frames that follow carry payload of request `id` (sent when that changes). */
  | { t: 'bytes'; id: number };

/** Parses a text frame; null for anything that is not a message object with a `t`. */
export function parseWireMessage(text: string): WireMessage | null {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && typeof (value as { t?: unknown }).t === 'string') return value as WireMessage;
  } catch {
    // fall through
  }
  return null;
}
