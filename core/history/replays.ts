/**
 * @module replays
 * The replays a host plays, one per room at most (a new one replaces the last): each reads
 * the other room's log once, sets the room to where it starts and plays on (replay-player.ts);
 * `at` sets the room to the other room's state at a moment, played nothing. Each start is
 * recorded in the room's own log (`replay`), and every change of pace (start, pause, resume,
 * seek, speed, end, stop) is told to the room's followers as a `replay` event with the status,
 * so a viewer can draw the timeline without asking. A replay lives on the host that started it:
 * on a service, steer it through the same host.
 */
import { createHostError } from '../errors.ts';
import { ReplayPlayer, type ReplayStatus } from './replay-player.ts';
import type { ReplayAsk } from './replay-request.ts';
import { applyState, type ReplayTarget } from './replay-target.ts';
import { foldAll } from './room-fold.ts';
import { MAX_LOG_PAGE, type LogEntry, type RoomLogStore } from './room-log-store.ts';
import type { RoomRecorder } from './room-recorder.ts';

/** Entries one replay reads at most (about a day of a busy room). */
const MAX_REPLAY_ENTRIES = 2_000_000;

interface ReplaysDeps {
  log: RoomLogStore;
  target: ReplayTarget;
  recorder: Pick<RoomRecorder, 'record'>;
  warn: (message: string, error: unknown) => void;
  /** Tells the room's followers where its replay is (the `replay` event). */
  announce?: (roomId: string, status: ReplayStatus) => void;
}

export class Replays {
  #players = new Map<string, ReplayPlayer>();
  #deps: ReplaysDeps;

  constructor(deps: ReplaysDeps) {
    this.#deps = deps;
  }

  /** The room's entries with seq up to `until` (every one when null), oldest first. */
  async #read(roomId: string, until: number | null): Promise<LogEntry[]> {
    const entries: LogEntry[] = [];
    let since = 0;
    for (;;) {
      const page = await this.#deps.log.read(roomId, since, MAX_LOG_PAGE);
      for (const entry of page.entries) if (until === null || entry.seq <= until) entries.push(entry);
      if (!page.more || entries.length >= MAX_REPLAY_ENTRIES || (until !== null && page.next_since >= until)) return entries;
      since = page.next_since;
    }
  }

  /** Answers what `ask` asks of room `roomId`. */
  async ask(roomId: string, ask: ReplayAsk): Promise<{ status: number; body: unknown }> {
    if (ask.kind === 'play') return { status: 202, body: await this.#play(roomId, ask) };
    if (ask.kind === 'jump') return { status: 200, body: await this.#jump(roomId, ask.from, ask.at) };
    return { status: 200, body: await this.#steer(roomId, ask) };
  }

  async #play(roomId: string, ask: Extract<ReplayAsk, { kind: 'play' }>): Promise<ReplayStatus> {
    const all = await this.#read(ask.from, ask.until);
    const entries = all.filter((entry) => entry.seq > ask.since);
    if (entries.length === 0) throw createHostError('SPC_ERR_REPLAY_EMPTY', ask.from);
    this.stop(roomId);
    const player = new ReplayPlayer({
      roomId,
      from: ask.from,
      target: this.#deps.target,
      before: all.filter((entry) => entry.seq <= ask.since),
      entries,
      speed: ask.speed,
      onError: (error) => this.#deps.warn(`replay of room '${ask.from}' into '${roomId}': an entry could not be written`, error),
      onEnd: () => this.#deps.announce?.(roomId, player.status()),
    });
    this.#players.set(roomId, player);
    await this.#deps.recorder.record(roomId, 'replay', { from: ask.from, since: ask.since, until: ask.until, speed: ask.speed });
    await player.start();
    this.#deps.announce?.(roomId, player.status());
    return player.status();
  }

  async #jump(roomId: string, from: string, at: number): Promise<unknown> {
    const entries = (await this.#read(from, null)).filter((entry) => entry.ts <= at);
    this.stop(roomId);
    await this.#deps.recorder.record(roomId, 'replay', { from, at });
    await applyState(this.#deps.target, roomId, foldAll(entries), true);
    return { room_id: roomId, from, at, seq: entries.at(-1)?.seq ?? 0 };
  }

  async #steer(roomId: string, ask: Extract<ReplayAsk, { kind: 'steer' }>): Promise<ReplayStatus> {
    const player = this.#players.get(roomId);
    if (!player) throw createHostError('SPC_ERR_REPLAY_NOT_FOUND', roomId);
    if (ask.speed !== undefined) player.setSpeed(ask.speed);
    if (ask.seek !== undefined) await player.seek(ask.seek);
    if (ask.pause === true) player.pause();
    if (ask.pause === false) player.resume();
    this.#deps.announce?.(roomId, player.status());
    return player.status();
  }

  /** The replay playing into the room. @throws SPC_ERR_REPLAY_NOT_FOUND */
  status(roomId: string): ReplayStatus {
    const player = this.#players.get(roomId);
    if (!player) throw createHostError('SPC_ERR_REPLAY_NOT_FOUND', roomId);
    return player.status();
  }

  /** Stops the replay playing into the room; false when none was. */
  stop(roomId: string): boolean {
    const player = this.#players.get(roomId);
    if (!player) return false;
    player.stop();
    this.#players.delete(roomId);
    this.#deps.announce?.(roomId, player.status());
    return true;
  }

  close(): void {
    for (const roomId of [...this.#players.keys()]) this.stop(roomId);
  }
}
