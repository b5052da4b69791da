/**
 * A throttled link for benchmarks: a loopback TCP proxy in front of a host that paces the
 * bytes flowing back to the client at a fixed rate (a headset on Wi-Fi). Requests go through
 * unpaced. Each connection gets the whole rate, unless `shared`: then every connection draws
 * on one rate, as a browser's parallel requests share one radio. The link counts the bytes it
 * has delivered, with the time of each slice (epoch milliseconds, comparable with a page's
 * `performance.timeOrigin + performance.now()`). With `delayMs`, every answer's bytes also
 * wait that long before the pacing (a link's latency).
 */
import net from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

/** When the link is next free (performance.now() milliseconds). */
interface Clock {
  due: number;
}

/** Releases bytes at `bytesPerSecond`, in slices of at most 16 KiB, each slice logged. */
function pacer(bytesPerSecond: number, clock: Clock, sent: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const slices: Buffer[] = [];
      for (let at = 0; at < chunk.length; at += 16384) slices.push(chunk.subarray(at, at + 16384));
      const next = (): void => {
        const slice = slices.shift();
        if (!slice) return callback();
        const now = performance.now();
        clock.due = Math.max(clock.due, now) + (slice.length / bytesPerSecond) * 1000;
        this.push(slice);
        sent(slice.length);
        const wait = clock.due - now;
        if (wait > 1) setTimeout(next, wait);
        else next();
      };
      next();
    },
  });
}

/** Holds each piece of bytes `ms` before passing it on, in order; the end waits for the last. */
function delayed(ms: number): Transform {
  let waiting = 0;
  let ended: TransformCallback | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      waiting++;
      setTimeout(() => {
        this.push(chunk);
        if (--waiting === 0 && ended) ended();
      }, ms);
      callback();
    },
    flush(callback: TransformCallback) {
      if (waiting === 0) callback();
      else ended = callback;
    },
  });
}

export interface ThrottledLink {
  url: string;
  /** Bytes delivered so far. */
  readonly bytes: number;
  /** Bytes delivered up to epoch millisecond `at`. */
  bytesBy(at: number): number;
  close(): Promise<void>;
}

/** A proxy on 127.0.0.1 to `targetUrl` whose answers travel at `bytesPerSecond` (each connection, or all of them when `shared`). */
export function startThrottledLink(
  targetUrl: string,
  bytesPerSecond: number,
  options: { shared?: boolean; delayMs?: number } = {},
): Promise<ThrottledLink> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const shared: Clock = { due: 0 };
  // [epoch ms, bytes delivered by then], one pair per slice.
  const log: [number, number][] = [];
  let bytes = 0;
  const sent = (n: number): void => {
    bytes += n;
    log.push([performance.timeOrigin + performance.now(), bytes]);
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    const paced = pacer(bytesPerSecond, options.shared ? shared : { due: 0 }, sent);
    (options.delayMs ? upstream.pipe(delayed(options.delayMs)) : upstream).pipe(paced).pipe(client);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        get bytes() {
          return bytes;
        },
        bytesBy: (at) => log.findLast(([when]) => when <= at)?.[1] ?? 0,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
