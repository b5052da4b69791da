/**
 * @module cutting-proxy
 * A TCP proxy on a free loopback port in front of a real server, for fault tests: it passes
 * bytes both ways, and once told to, breaks every connection off after a number of bytes of
 * answer (a store that fails mid-transfer). `deadPort()` gives a port nobody listens on (a
 * store that cannot be reached).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface CuttingProxy {
  url: string;
  /** Breaks each connection off after `bytes` bytes of answer; null passes everything. */
  cutAfter(bytes: number | null): void;
  /** A port that was free a moment ago: connecting to it is refused. */
  deadPort(): Promise<number>;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

export async function startCuttingProxy(targetPort: string | number): Promise<CuttingProxy> {
  let limit: number | null = null;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: Number(targetPort) });
    sockets.add(client).add(upstream);
    let sent = 0;
    const cutAt = limit;
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (cutAt !== null && sent + chunk.byteLength > cutAt) {
        client.write(chunk.subarray(0, Math.max(0, cutAt - sent)));
        client.destroy();
        upstream.destroy();
        return;
      }
      sent += chunk.byteLength;
      client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    cutAfter(bytes) {
      limit = bytes;
      // Connections kept alive from before follow the new rule too: they start again.
      for (const socket of sockets) socket.destroy();
    },
    async deadPort() {
      const probe = createServer();
      const free = await listen(probe);
      await new Promise((resolve) => probe.close(resolve));
      return free;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
