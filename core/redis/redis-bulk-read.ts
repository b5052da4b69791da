/**
 * @module redis-bulk-read
 * Reads a blob's chunks from Redis straight into their place in the result's memory: one GET
 * per chunk, all written at once on a connection of the read's own. While a reply's bytes are
 * coming, each socket read is given the very part of the result they belong in, so the kernel
 * writes them there and nothing copies them again; only the few bytes of the protocol between
 * replies (and what follows them in the same read) pass through a small buffer of its own.
 * The ioredis client gathers a large reply into a buffer of its own before handing it over,
 * which copies every byte of a cold read twice and maps a fresh buffer per chunk and per
 * socket read; this reader halves the CPU a cold read costs. It speaks just enough of the
 * Redis protocol for that: AUTH and SELECT when the connection has them, then bulk-string
 * replies, a nil one (a chunk gone) and an error reply ending the read.
 */
import net from 'node:net';
import type { RedisOptions } from 'ioredis';
import type { PayloadFill } from '../results/payload-fill.ts';
import { TimeLimitError } from './time-limit.ts';

/** Where the blob store's Redis is (its client's own options; a Unix socket `path` in place of host and port). */
export type BulkReadTarget = Pick<RedisOptions, 'host' | 'port' | 'path' | 'username' | 'password' | 'db'>;

/** One socket read into the result at most: a 4 MiB chunk takes a few. */
const DIRECT_READ_BYTES = 1024 * 1024;
/** The buffer for the protocol's lines between replies (and bytes read along with them). */
const LINE_BUFFER_BYTES = 16 * 1024;

/** A chunk asked for is not in Redis (expired or evicted): for the store, a miss. */
export class ChunkGoneError extends Error {}

function command(...args: string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

/**
 * Fills `fill` with the values of `keys`, in order; rejects when one is gone, Redis answers an
 * error, the connection fails, or `timeoutMs` passes (the connection is then closed).
 */
export function bulkReadInto(target: BulkReadTarget, keys: string[], fill: PayloadFill, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const setup: string[] = [];
    if (target.password) setup.push(target.username ? command('AUTH', target.username, target.password) : command('AUTH', target.password));
    if (target.db) setup.push(command('SELECT', String(target.db)));
    let okReplies = setup.length;
    let index = 0;
    let line = '';
    /** Bytes of the current bulk reply still to come, then its closing CRLF. */
    let bulkLeft = -1;
    let crlfLeft = 0;
    let settled = false;
    const lineBuffer = Buffer.allocUnsafe(LINE_BUFFER_BYTES);
    /**
     * Where the next socket read goes: inside a reply, the result's own memory at the fill's
     * end, never past the reply (so no protocol byte lands there); else the line buffer.
     */
    const nextBuffer = (): Uint8Array =>
      bulkLeft > 0 && !settled ? fill.bytes.subarray(fill.filled, fill.filled + Math.min(bulkLeft, DIRECT_READ_BYTES)) : lineBuffer;
    const socket = net.connect({
      ...(target.path ? { path: target.path } : { host: target.host ?? '127.0.0.1', port: target.port ?? 6379, noDelay: true }),
      // Node asks nextBuffer for each read's memory and calls back with what landed there
      // (true: go on reading).
      onread: {
        buffer: nextBuffer,
        callback: (length, buffer) => {
          if (buffer.buffer === fill.bytes.buffer) arrivedInPlace(length);
          else consume(lineBuffer.subarray(0, length));
          return true;
        },
      },
    });
    const end = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => end(new TimeLimitError(`reading a result from Redis got no answer within ${Math.round(timeoutMs)} ms`)), timeoutMs);
    const onLine = (text: string) => {
      if (text.startsWith('-')) return end(new Error(`Redis refused reading a result: ${text.slice(1)}`));
      if (okReplies > 0) {
        okReplies--;
        return undefined;
      }
      if (text === '$-1') return end(new ChunkGoneError(`a chunk of the result is gone from Redis (${index + 1} of ${keys.length})`));
      if (!text.startsWith('$')) return end(new Error(`unexpected reply from Redis while reading a result: ${text.slice(0, 40)}`));
      bulkLeft = Number(text.slice(1));
      if (!Number.isSafeInteger(bulkLeft) || bulkLeft < 0 || fill.filled + bulkLeft > fill.bytes.byteLength) {
        return end(new Error('a chunk of the result in Redis does not fit its header'));
      }
      return undefined;
    };
    /** `length` more bytes of the current reply are in the fill; its CRLF follows its last. */
    const counted = (length: number): void => {
      bulkLeft -= length;
      if (bulkLeft === 0) crlfLeft = 2;
    };
    /** `length` bytes of the current reply were read into the result where they belong. */
    const arrivedInPlace = (length: number): void => {
      if (settled) return;
      fill.advance(length);
      counted(length);
    };
    const consume = (data: Buffer): void => {
      let at = 0;
      while (at < data.length && !settled) {
        if (bulkLeft > 0) {
          const take = Math.min(bulkLeft, data.length - at);
          fill.write(data.subarray(at, at + take));
          at += take;
          counted(take);
        } else if (crlfLeft > 0) {
          const take = Math.min(crlfLeft, data.length - at);
          crlfLeft -= take;
          at += take;
          if (crlfLeft === 0) {
            bulkLeft = -1;
            if (++index === keys.length) end(fill.complete ? null : new Error('the result in Redis is shorter than its header says'));
          }
        } else if (bulkLeft === 0) {
          // An empty value: its CRLF follows at once.
          crlfLeft = 2;
        } else {
          const newline = data.indexOf(10, at);
          if (newline < 0) {
            line += data.toString('latin1', at);
            at = data.length;
          } else {
            line += data.toString('latin1', at, newline);
            at = newline + 1;
            const text = line.endsWith('\r') ? line.slice(0, -1) : line;
            line = '';
            onLine(text);
          }
        }
      }
    };
    socket.on('error', (error) => end(new Error(`reading a result from Redis: ${error.message}`)));
    socket.on('close', () => end(new Error('the connection to Redis closed while a result was read')));
    socket.write(setup.join('') + keys.map((key) => command('GET', key)).join(''));
  });
}
