/**
 * @module free-port
 * A loopback port nobody listens on right now, for the servers tests start themselves
 * (redis-server, nginx, Swift): the OS picks it, and it is free again once this resolves.
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
