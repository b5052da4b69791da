/**
 * @module server
 * Listening: opens a created host (app.ts) on an address and says where clients reach it.
 * `vitrine serve` (cli/serve-command.ts) and embedding applications call it.
 */
import type { FastifyInstance } from 'fastify';

/** Listens and returns the address clients use. */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  const address = app.server.address();
  const realPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${realPort}`;
}
