/**
 * @module redis-homes
 * The stores of a host of a Redis service: every one in the service's Redis, shared by all its
 * hosts and outliving them, each change of a room and its log entry written by one script;
 * the bytes snapshots pin and published files in the service's blob store. Who is in a room is
 * the service's roster, and live poses and rooms' agent frames cross hosts through its pub/sub.
 */
import { RedisAgentRelay } from '../agent/service/redis-agent-relay.ts';
import { RedisClientIds } from '../agent/redis-client-ids.ts';
import { RedisAnnotationStore } from '../annotations/redis-annotation-store.ts';
import { RedisEditStore } from '../edits/redis-edit-store.ts';
import { ROOM_CHANNEL_PREFIX } from '../events/channels.ts';
import { RedisRoomLog } from '../history/redis-room-log.ts';
import { openUserStore } from '../people/open-user-store.ts';
import { RedisAccessStore } from '../people/redis-access-store.ts';
import { RedisTicketStore } from '../people/redis-ticket-store.ts';
import { RedisLiveRelay } from '../presence/redis-live-relay.ts';
import { RedisRoster } from '../presence/redis-roster.ts';
import { RedisPublished } from '../published/redis-published.ts';
import { RedisRemoteSpecimens } from '../remote/redis-remote-specimens.ts';
import { RedisRoomBoard } from '../rooms/redis-room-board.ts';
import { RedisSceneStore } from '../scenes/redis-scene-store.ts';
import { BlobResultPins } from '../snapshots/blob-result-pins.ts';
import { RedisSnapshotStore } from '../snapshots/redis-snapshot-store.ts';
import type { ScaleService } from './scale-service.ts';
import { closeAll, type HomeDeps, type StoreHomes } from './store-homes.ts';

export function redisHomes({ options, events, warn }: HomeDeps, scale: ScaleService): StoreHomes {
  const redis = scale.connections.command;
  const log = new RedisRoomLog(redis, options.logTtlSeconds);
  const board = new RedisRoomBoard(redis, options.cacheTtlSeconds, log);
  const annotations = new RedisAnnotationStore(redis, options.maxAnnotations, log);
  const snapshots = new RedisSnapshotStore(redis, log);
  const pins = new BlobResultPins(scale.blobs);
  // The rooms this host streams are the ones whose silent peers it looks for.
  const streamed = () => events.channels(ROOM_CHANNEL_PREFIX).map((channel) => channel.slice(ROOM_CHANNEL_PREFIX.length));
  const relay = new RedisLiveRelay(redis, scale.connections.subscriber.duplicate());
  // Not awaited: a host started while Redis is down listens at once, and poses cross hosts once it answers.
  relay.start().catch((err: unknown) => warn('live poses could not subscribe across hosts', err));
  const agentRelay = new RedisAgentRelay(redis, scale.connections.subscriber.duplicate());
  agentRelay.start().catch((err: unknown) => warn('the agent could not subscribe across hosts', err));
  return {
    log,
    board,
    scenes: new RedisSceneStore(redis, log),
    annotations,
    edits: new RedisEditStore(redis, log),
    snapshots,
    pins,
    share: new RedisPublished(redis, scale.connections.blobs),
    remoteSpecimens: new RedisRemoteSpecimens(redis),
    people: { users: openUserStore({ connection: redis }), tickets: new RedisTicketStore(redis), access: new RedisAccessStore(redis, log, scale.accessNews) },
    roster: new RedisRoster(redis, (roomId, event, data) => board.announce(roomId, event, data), streamed),
    relay,
    clientIds: new RedisClientIds(redis),
    agentRelay,
    close: closeAll(snapshots, pins, annotations, log, agentRelay),
  };
}
