/**
 * @module assemble-workspace
 * Rooms as shared workspaces, for one host: its published specimens and its rooms' views and
 * shown specimens, kept by the host itself or, on a Redis service, in the service (loaded
 * only then, so a lone host never loads Redis code). Each change of the published specimens
 * this host lists goes out on the host event stream as `catalog` (`{"specimens": [id]}`), so
 * open viewers list a new specimen at once; on a service, a host with viewers listening reads
 * the service's list every few seconds to notice what other hosts published.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import { HOST_CHANNEL } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { ResultSource } from '../serving/result-source.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ScaleService } from './scale-service.ts';
import { PublishedSpecimens, type PublishedLog } from '../workspace/published-specimens.ts';
import { MemoryRoomBoard } from '../rooms/memory-room-board.ts';
import type { RoomBoard } from '../rooms/room-board.ts';
import { RoomWorkspace } from '../workspace/room-workspace.ts';

/** How often a service's host with viewers listening reads whether other hosts published. */
const SERVICE_POLL_MS = 2000;

export interface Workspace {
  published: PublishedSpecimens;
  rooms: RoomWorkspace;
  close(): void;
}

export async function assembleWorkspace(deps: {
  options: Pick<ResolvedHostOptions, 'publishedTtlSeconds' | 'cacheTtlSeconds'>;
  results: ResultSource;
  budget: ResultBudget<StoredResult>;
  catalog: SpecimenCatalog;
  events: EventHub;
  scale: ScaleService | null;
  log: PublishedLog;
}): Promise<Workspace> {
  const { options, scale } = deps;
  let board: RoomBoard = new MemoryRoomBoard(deps.events, options.cacheTtlSeconds);
  let share = null;
  if (scale) {
    const [{ RedisRoomBoard }, { RedisPublished }] = await Promise.all([import('../rooms/redis-room-board.ts'), import('../workspace/redis-published.ts')]);
    board = new RedisRoomBoard(scale.connections.command, options.cacheTtlSeconds);
    share = new RedisPublished(scale.connections.command, scale.connections.blobs);
  }
  const events = deps.events;
  const onChange = (id: string) => void events.publish(HOST_CHANNEL, { event: 'catalog', data: { specimens: [id] } });
  const published = new PublishedSpecimens({ catalog: deps.catalog, budget: deps.budget, share, ttlSeconds: options.publishedTtlSeconds, log: deps.log, onChange });
  // A restarted host lists what the service published before it answers (bounded wait).
  await published.refresh();
  let poll: NodeJS.Timeout | null = null;
  if (share) {
    poll = setInterval(() => {
      if (events.listenerCount(HOST_CHANNEL) > 0) void published.refresh();
    }, SERVICE_POLL_MS);
    poll.unref();
  }
  return {
    published,
    rooms: new RoomWorkspace(deps.results, board),
    close: () => {
      if (poll) clearInterval(poll);
      published.close();
    },
  };
}
