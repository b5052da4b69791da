/**
 * @module replay-player
 * One replay playing into a room: another room's entries written at their original offsets
 * (scaled by the speed) on a clock that can pause, resume, change speed and seek. The clock
 * maps wall time to the other room's time from an anchor moved at every change of pace, so a
 * pause or a speed change never shifts what comes after; entries due together are written in
 * order, one at a time. Seeking folds the log up to the moment and sets the room to it.
 */
import { asActor } from './request-actor.ts';
import { applyState, type ReplayTarget } from './replay-target.ts';
import { conversationChange } from './conversation-record.ts';
import { foldAll, foldEntry, type FoldedRoom } from './room-fold.ts';
import type { LogEntry } from './room-log-store.ts';
import type { ReplayStatus } from '../wire/room-types.ts';

// The status is the wire's (what a client reads from POST .../replay and the `replay` event).
export type { ReplayStatus };
export type ReplayState = ReplayStatus['state'];

interface ReplayOptions {
  roomId: string;
  from: string;
  target: ReplayTarget;
  /** The entries up to `since`: the state the replay starts from. */
  before: LogEntry[];
  entries: LogEntry[];
  speed: number;
  onError: (error: unknown) => void;
  /** Runs once when the last entry was written (not when stopped). */
  onEnd?: () => void;
}

export class ReplayPlayer {
  #opts: ReplayOptions;
  #index = 0;
  #state: ReplayState = 'paused';
  #speed: number;
  #anchorWall = 0;
  #anchorSource: number;
  #timer: NodeJS.Timeout | null = null;
  /** What the room holds now, as the replay wrote it (marks are written whole). */
  #room: FoldedRoom = {};
  #busy: Promise<void> = Promise.resolve();

  constructor(opts: ReplayOptions) {
    this.#opts = opts;
    this.#speed = opts.speed;
    this.#anchorSource = opts.entries[0]?.ts ?? 0;
  }

  /** Sets the room to where the replay starts, then plays. */
  async start(): Promise<void> {
    this.#room = foldAll(this.#opts.before);
    await applyState(this.#opts.target, this.#opts.roomId, this.#room, true);
    this.#state = 'playing';
    this.#anchorWall = Date.now();
    this.#schedule();
  }

  #sourceNow(): number {
    return this.#state === 'playing' ? this.#anchorSource + (Date.now() - this.#anchorWall) * this.#speed : this.#anchorSource;
  }

  #reanchor(): void {
    this.#anchorSource = this.#sourceNow();
    this.#anchorWall = Date.now();
  }

  #schedule(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#state !== 'playing') return;
    const next = this.#opts.entries[this.#index];
    if (!next) {
      this.#state = 'ended';
      this.#opts.onEnd?.();
      return;
    }
    const delay = Math.max(0, (next.ts - this.#sourceNow()) / this.#speed);
    this.#timer = setTimeout(() => void this.#tick(), delay);
  }

  async #tick(): Promise<void> {
    this.#timer = null;
    const now = this.#sourceNow();
    const due: LogEntry[] = [];
    while (this.#index < this.#opts.entries.length && this.#opts.entries[this.#index]!.ts <= now) due.push(this.#opts.entries[this.#index++]!);
    this.#busy = this.#busy.then(async () => {
      for (const entry of due) await this.#write(entry).catch(this.#opts.onError);
    });
    await this.#busy;
    this.#schedule();
  }

  /** Writes one entry as the one who made it. */
  async #write(entry: LogEntry): Promise<void> {
    if (!foldEntry(this.#room, entry)) return;
    const room = this.#room;
    await asActor(entry.by, async () => {
      if (entry.type === 'view') await this.#opts.target.setView(this.#opts.roomId, room.view!);
      else if (entry.type === 'scene' || entry.type === 'layer') await this.#opts.target.setScene(this.#opts.roomId, room.scene!);
      else if (entry.type === 'annotation') await this.#opts.target.setAnnotations(this.#opts.roomId, [...room.annotations!.values()]);
      else if (entry.type === 'entry') await this.#opts.target.showEntry(this.#opts.roomId, room.entry!);
      else if (entry.type === 'conversation') await this.#opts.target.sayConversation(this.#opts.roomId, conversationChange(entry));
    });
  }

  pause(): void {
    if (this.#state !== 'playing') return;
    this.#reanchor();
    this.#state = 'paused';
    this.#schedule();
  }

  resume(): void {
    if (this.#state !== 'paused') return;
    this.#anchorWall = Date.now();
    this.#state = 'playing';
    this.#schedule();
  }

  setSpeed(speed: number): void {
    this.#reanchor();
    this.#speed = speed;
    this.#schedule();
  }

  /** Sets the room to the other room's state at `ts` and plays on from there (or stays paused). */
  async seek(ts: number): Promise<void> {
    if (this.#state === 'ended') this.#state = 'paused';
    const playing = this.#state === 'playing';
    this.#state = 'paused';
    this.#schedule();
    await this.#busy;
    let index = 0;
    while (index < this.#opts.entries.length && this.#opts.entries[index]!.ts <= ts) index++;
    this.#room = foldAll([...this.#opts.before, ...this.#opts.entries.slice(0, index)]);
    await applyState(this.#opts.target, this.#opts.roomId, this.#room, true);
    this.#index = index;
    this.#anchorSource = ts;
    this.#anchorWall = Date.now();
    this.#state = playing ? 'playing' : 'paused';
    this.#schedule();
  }

  stop(): void {
    this.#state = 'ended';
    this.#schedule();
  }

  status(): ReplayStatus {
    const first = this.#opts.entries[0];
    const last = this.#opts.entries.at(-1);
    return {
      room_id: this.#opts.roomId,
      from: this.#opts.from,
      state: this.#state,
      speed: this.#speed,
      position: Math.round(Math.min(this.#sourceNow(), last?.ts ?? 0)),
      start_ts: first?.ts ?? 0,
      end_ts: last?.ts ?? 0,
      applied: this.#index,
      total: this.#opts.entries.length,
      since: first ? first.seq - 1 : 0,
      until: last?.seq ?? 0,
    };
  }
}
