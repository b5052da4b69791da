/**
 * @module channel-types
 * The shapes both ends of a federation channel exchange with their callers: what a request
 * handler answers, what a requester passes and gets back.
 */
import type { Readable } from 'node:stream';
import type { PayloadFill } from '../results/payload-fill.ts';

/** What a request handler answers: a JSON body, optionally followed by raw bytes. */
export interface HandlerReply {
  body: Record<string, unknown>;
  payload?: { byteLength: number; blocks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> };
}

export interface HandlerContext {
  signal: AbortSignal;
  /** Sends a progress event to the requester. */
  emit(body: Record<string, unknown>): void;
}

export type RequestHandler = (op: string, body: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerReply>;

export interface RequestOptions {
  /** Until the answer's header arrives, and then between chunks. */
  timeoutMs: number;
  signal?: AbortSignal;
  onEvent?: (body: Record<string, unknown>) => void;
  /** `buffer`: the payload arrives as one ArrayBuffer; `stream`: as a Readable, resolved at once. */
  sink?: 'buffer' | 'stream';
  /**
   * With the `buffer` sink: called once the answer's header is in and its buffer allocated,
   * before any payload byte; the fill tells how far the bytes have arrived.
   */
  onPayload?: (body: Record<string, unknown>, fill: PayloadFill) => void;
}

export interface RequestAnswer {
  body: Record<string, unknown>;
  payload: ArrayBuffer | null;
  stream: Readable | null;
  byteLength: number;
}
