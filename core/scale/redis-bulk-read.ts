/**
 * @module redis-bulk-read
 * Reads a blob's chunks from Redis straight into their place in the result's memory: one GET
 * per chunk, all written at once on a connection of the read's own, each reply's bytes copied
 * from the socket's buffers into the PayloadFill as they arrive. The ioredis client gathers a
 * large reply into a buffer of its own before handing it over, which copies every byte of a
 * cold read twice and maps a fresh buffer per chunk; this reader copies once, from one read
 * buffer of its own that every socket read reuses (no buffer made per read, nothing for the
 * garbage collector, no fresh memory for the kernel to fault in). It speaks just
 * enough of the Redis protocol for that: AUTH and SELECT when the connection has them, then
 * bulk-string replies, a nil one (a chunk gone) and an error reply ending the read.
 */
import net from 'node:net';
import type { PayloadFill } from '../results/payload-fill.ts';

/** Where the blob store's Redis is (its client's own options). */
export interface BulkReadTarget {
  host?: string | undefined;
  port?: number | undefined;
  /** A Unix socket, in place of host and port. */
  path?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  db?: number | undefined;
}

/** One socket read at most: large enough that a 4 MiB chunk takes few reads, small enough to stay in cache. */
const READ_BUFFER_BYTES = 256 * 1024;

function command(...args: string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

/**
 * Fills `fill` with the values of `keys`, in order; rejects when one is gone, Redis answers an
 * error, the connection fails, or `timeoutMs` passes (the connection is then closed).
 */
export function bulkReadInto(target: BulkReadTarget, keys: string[], fill: PayloadFill, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    const socket = net.connect({
      ...(target.path ? { path: target.path } : { host: target.host ?? '127.0.0.1', port: target.port ?? 6379, noDelay: true }),
      // Every read lands in the same buffer; its bytes are copied out before the next read
      // (true: go on reading).
      onread: { buffer: readBuffer, callback: (length) => (consume(readBuffer.subarray(0, length)), true) },
    });
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
    const end = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => end(new Error(`reading a result from Redis took longer than ${timeoutMs} ms`)), timeoutMs);
    const onLine = (text: string) => {
      if (text.startsWith('-')) return end(new Error(`Redis refused reading a result: ${text.slice(1)}`));
      if (okReplies > 0) {
        okReplies--;
        return undefined;
      }
      if (text === '$-1') return end(new Error(`a chunk of the result is gone from Redis (${index + 1} of ${keys.length})`));
      if (!text.startsWith('$')) return end(new Error(`unexpected reply from Redis while reading a result: ${text.slice(0, 40)}`));
      bulkLeft = Number(text.slice(1));
      if (!Number.isSafeInteger(bulkLeft) || bulkLeft < 0 || fill.filled + bulkLeft > fill.bytes.byteLength) {
        return end(new Error('a chunk of the result in Redis does not fit its header'));
      }
      return undefined;
    };
    const consume = (data: Buffer): void => {
      let at = 0;
      while (at < data.length && !settled) {
        if (bulkLeft > 0) {
          const take = Math.min(bulkLeft, data.length - at);
          fill.write(data.subarray(at, at + take));
          bulkLeft -= take;
          at += take;
          if (bulkLeft === 0) crlfLeft = 2;
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
