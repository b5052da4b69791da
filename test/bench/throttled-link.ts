/**
 * A throttled link for benchmarks: a loopback TCP proxy in front of a host that paces the
 * bytes flowing back to the client at a fixed rate (a headset on Wi-Fi). Requests go through
 * unpaced. Each connection gets the whole rate.
 */
import net from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

/** Releases bytes at `bytesPerSecond`, in slices of at most 16 KiB. */
function pacer(bytesPerSecond: number): Transform {
  let due = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const slices: Buffer[] = [];
      for (let at = 0; at < chunk.length; at += 16384) slices.push(chunk.subarray(at, at + 16384));
      const next = (): void => {
        const slice = slices.shift();
        if (!slice) return callback();
        const now = performance.now();
        due = Math.max(due, now) + (slice.length / bytesPerSecond) * 1000;
        this.push(slice);
        const wait = due - now;
        if (wait > 1) setTimeout(next, wait);
        else next();
      };
      next();
    },
  });
}

export interface ThrottledLink {
  url: string;
  close(): Promise<void>;
}

/** A proxy on 127.0.0.1 to `targetUrl` whose answers travel at `bytesPerSecond`. */
export function startThrottledLink(targetUrl: string, bytesPerSecond: number): Promise<ThrottledLink> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
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
    upstream.pipe(pacer(bytesPerSecond)).pipe(client);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
