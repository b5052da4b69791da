/**
 * @module redis-roster
 * A Redis service's roster: one hash per room (peer id → the peer with the time its listing
 * runs out), so every host lists everyone. Each host says its own peers are there every
 * PRESENCE_BEAT_MS, and looks through the rooms it serves for peers whose listing ran out (a
 * host killed or cut off): the host that takes such a peer out (HDEL answers 1 to one host
 * only) tells the room it left. A peer's leave is told once however many hosts notice.
 */
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storedJson } from '../redis/stored-json.ts';
import type { Peer } from './peer.ts';
import { PRESENCE_BEAT_MS, PRESENCE_EVENT, PRESENCE_TTL_MS, type Announce, type Roster } from './roster.ts';

type Listed = Peer & { exp: number };

function parse(json: string): Listed | null {
  const value = storedJson(json) as Listed | null;
  return typeof value?.id === 'string' && typeof value.exp === 'number' ? value : null;
}

const peerOnly = ({ exp: _exp, ...peer }: Listed): Peer => peer;

export class RedisRoster implements Roster {
  #redis: ScriptedRedis;
  #announce: Announce;
  /** This host's own peers, by room. */
  #own = new Map<string, Map<string, Peer>>();
  /** The rooms whose ghosts this host looks for besides its own peers' (e.g. rooms it streams). */
  #watched: () => string[];
  #timer = setInterval(() => void this.#beat().catch(() => {}), PRESENCE_BEAT_MS).unref();

  constructor(redis: ScriptedRedis, announce: Announce, watched: () => string[] = () => []) {
    this.#redis = redis;
    this.#announce = announce;
    this.#watched = watched;
  }

  #listing(peer: Peer): string {
    return JSON.stringify({ ...peer, exp: Date.now() + PRESENCE_TTL_MS });
  }

  async join(roomId: string, peer: Peer): Promise<void> {
    let own = this.#own.get(roomId);
    if (!own) this.#own.set(roomId, (own = new Map()));
    own.set(peer.id, peer);
    await orUnavailable(this.#redis.hset(KEYS.roomPresence(roomId), peer.id, this.#listing(peer)));
    await this.#announce(roomId, PRESENCE_EVENT, { op: 'join', peer });
  }

  async leave(roomId: string, peerId: string): Promise<boolean> {
    const own = this.#own.get(roomId);
    const mine = own?.get(peerId);
    own?.delete(peerId);
    if (own?.size === 0) this.#own.delete(roomId);
    const key = KEYS.roomPresence(roomId);
    const listed = mine ?? (await orUnavailable(this.#redis.hget(key, peerId)).then((json) => (json ? parse(json) : null)));
    if ((await orUnavailable(this.#redis.hdel(key, peerId))) !== 1 || !listed) return false;
    await this.#announce(roomId, PRESENCE_EVENT, { op: 'leave', peer: 'exp' in listed ? peerOnly(listed as Listed) : listed });
    return true;
  }

  async list(roomId: string): Promise<Peer[]> {
    const all = await orUnavailable(this.#redis.hvals(KEYS.roomPresence(roomId)));
    const now = Date.now();
    return all
      .map(parse)
      .filter((p): p is Listed => p !== null && p.exp > now)
      .sort((a, b) => a.since - b.since)
      .map(peerOnly);
  }

  /** Says this host's peers are there (re-joining any taken out meanwhile), then takes out the rooms' ghosts. */
  async #beat(): Promise<void> {
    for (const [roomId, own] of this.#own) {
      const args = [...own.values()].flatMap((peer) => [peer.id, this.#listing(peer)]);
      const missing = (await this.#redis.vPresenceBeat(roomId, PRESENCE_TTL_MS, ...args)) as string[];
      for (const id of missing) {
        const peer = own.get(id);
        if (peer) await this.join(roomId, peer);
      }
    }
    const rooms = new Set([...this.#own.keys(), ...this.#watched()]);
    for (const roomId of rooms) await this.#sweep(roomId);
  }

  async #sweep(roomId: string): Promise<void> {
    const key = KEYS.roomPresence(roomId);
    const all = await this.#redis.hgetall(key);
    const now = Date.now();
    for (const [id, json] of Object.entries(all)) {
      const listed = parse(json);
      if (listed && listed.exp > now) continue;
      if ((await this.#redis.hdel(key, id)) === 1 && listed) await this.#announce(roomId, PRESENCE_EVENT, { op: 'leave', peer: peerOnly(listed) });
    }
  }

  close(): void {
    clearInterval(this.#timer);
    this.#own.clear();
  }
}
