/**
 * @module send-remote-delivery
 * A specimen published from a remote, delivered: the level that fits what the client shows
 * (the finest whose every spatial axis is within `max_dim`, the Godot profile's 256 included;
 * else the finest within `--max-remote-bytes`), read in place (only that level's chunks or
 * shard ranges) and sent as any volume result is, with every delivery option, its
 * X-Result-Id (so its OME-Zarr stores open) and `X-Remote-Level` naming the level read.
 */
import type { FastifyReply } from 'fastify';
import type { DeliveryOptions } from '../../delivery/delivery-options.ts';
import { resolveDelivery } from '../../delivery/request-delivery.ts';
import type { ClientProfileSettings } from '../../delivery/client-profile.ts';
import type { HostContext } from '../../host-context.ts';
import type { RemoteSpecimen } from '../../remote/remote-data.ts';
import { RESULT_ID_HEADER } from '../../serving/result-ids.ts';
import { sendDelivery, type DeliveryReplyDeps } from '../reply-delivery.ts';

/** The header naming the level of the remote image a delivery was made from. */
export const REMOTE_LEVEL_HEADER = 'x-remote-level';

export type RemoteDeliveryDeps = DeliveryReplyDeps & { options: ClientProfileSettings } & Pick<HostContext, 'remotes' | 'resultIds'>;

export async function sendRemoteDelivery(
  ctx: RemoteDeliveryDeps,
  reply: FastifyReply,
  specimen: RemoteSpecimen,
  asked: DeliveryOptions,
): Promise<FastifyReply> {
  const delivery = resolveDelivery(asked, 'volume', reply.request.headers['user-agent'], ctx.options);
  const level = ctx.remotes.levelFor(specimen, delivery.max_dim);
  const result = await ctx.remotes.volume(specimen, level);
  const resultId = await ctx.resultIds.of(result);
  reply.header(RESULT_ID_HEADER, resultId);
  reply.header(REMOTE_LEVEL_HEADER, specimen.image.levels[level]!.path);
  return sendDelivery(ctx, reply, result, delivery, specimen.id, resultId);
}
