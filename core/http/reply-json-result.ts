/**
 * @module reply-json-result
 * Sends a stored result as the JSON typed result, encoded off the event loop, once for all
 * the clients reading it at the same time.
 */
import type { FastifyReply } from 'fastify';
import type { HostContext } from '../host-context.ts';
import type { StoredResult } from '../results/stored-result.ts';

export async function sendJsonResult(ctx: Pick<HostContext, 'json'>, reply: FastifyReply, result: StoredResult, functionName: string): Promise<FastifyReply> {
  const lease = await ctx.json.acquire(result, functionName);
  // Held until the response is over (sent, or the client gone): the socket writes from the
  // shared bytes, it never copies them.
  reply.raw.once('close', lease.release);
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('content-length', lease.bytes.length);
  return reply.send(lease.bytes);
}
