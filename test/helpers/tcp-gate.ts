/**
 * @module tcp-gate
 * A TCP forwarder on a loopback port of its own in front of a real server, for the faults of a
 * server that is slow to start again: `close()` refuses connections and breaks those open (the
 * server gone), `open()` takes them again on the same port (the server back, as it was);
 * `hold()` takes connections and answers nothing, `release()` lets what was held through in
 * order (a server stopped in its tracks and continued, as SIGSTOP and SIGCONT would).
 */
import { createConnection, createServer, type Socket } from 'node:net';
import { freePort } from './free-port.ts';

export interface TcpGate {
  /** The loopback port clients connect to. */
  readonly port: number;
  open(): Promise<void>;
  close(): Promise<void>;
  hold(): void;
  release(): void;
}

export async function startTcpGate(targetPort: number): Promise<TcpGate> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let held: (() => void)[] | null = null;
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => (held ? held.push(() => to.write(chunk)) : to.write(chunk)));
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    sockets.add(client).add(upstream);
    forward(client, upstream);
    forward(upstream, client);
    const end = (): void => {
      for (const socket of [client, upstream]) {
        socket.destroy();
        sockets.delete(socket);
      }
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  const gate: TcpGate = {
    port,
    open: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const write of waiting) write();
    },
  };
  await gate.open();
  return gate;
}
