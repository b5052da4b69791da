/**
 * @module published-expiry
 * When a published specimen goes: `--published-ttl` after it was last published, unless
 * something still names it. What a room shows lives as long as the room: a scene's layer (its
 * source, or an input of its function) names the specimen it shows, and while one does, the
 * specimen is renewed for another time-to-live ahead of its expiry, whatever the TTL says; a
 * snapshot holds what it names until the snapshot goes (published-specimens.ts `holdUntil`).
 * Only what nothing names expires. Asking what is named reads every room's scene, so it is
 * asked only for specimens near their end, and at most every so often, except when one is due
 * to go now: then always, so a specimen named a moment ago is never dropped.
 */

/** What names published specimens (the rooms' scenes). */
export interface SpecimenNamers {
  /** Of `ids`, those something names now. */
  named(ids: ReadonlySet<string>): Promise<Set<string>>;
}

/** What a sweep does: the specimens to renew for another time-to-live, and those to let go. */
export interface ExpiryDecision {
  renew: string[];
  drop: string[];
}

/** Longest ahead of its end a named specimen is renewed. */
const MAX_MARGIN_MS = 3600_000;
/** Shortest ahead of its end a named specimen is renewed: a few sweeps. */
const MIN_MARGIN_MS = 2000;
/** Longest between two questions about specimens near their end (none yet due to go). */
const MAX_CHECK_MS = 60_000;

/** What the sweep reads and does of the specimens published here. */
export interface ExpiryHooks {
  /** The specimens held here: each id and expiry (ms since the epoch). */
  held(): { id: string; expires_at: number }[];
  /** Keeps `id` until `until`. */
  renew(id: string, until: number): Promise<void>;
  /** Lets `id` go. */
  drop(id: string): Promise<void>;
  warn(line: string): void;
}

/** How often the sweep runs. */
const SWEEP_MS = 1000;

export class PublishedExpiry {
  readonly #ttlMs: number;
  readonly #namers: SpecimenNamers | null;
  readonly #hooks: ExpiryHooks;
  readonly #timer = setInterval(() => void this.#sweep(), SWEEP_MS).unref();
  #checked = 0;
  /** A sweep under way: the next one waits its turn. */
  #sweeping = false;

  constructor(ttlMs: number, namers: SpecimenNamers | null, hooks: ExpiryHooks) {
    this.#ttlMs = ttlMs;
    this.#namers = namers;
    this.#hooks = hooks;
  }

  /** How long before its end a named specimen is renewed. */
  get marginMs(): number {
    return Math.max(MIN_MARGIN_MS, Math.min(this.#ttlMs / 2, MAX_MARGIN_MS));
  }

  /** Renews what is named near its end, lets go of what nothing names past it. */
  async #sweep(): Promise<void> {
    const held = this.#hooks.held();
    if (this.#sweeping || held.length === 0) return;
    this.#sweeping = true;
    try {
      const { renew, drop } = await this.decide(held);
      for (const id of renew) await this.#hooks.renew(id, Date.now() + this.#ttlMs);
      for (const id of drop) await this.#hooks.drop(id);
    } catch (error) {
      this.#hooks.warn(`published specimens could not be renewed or let go: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#sweeping = false;
    }
  }

  /** What to do now with the specimens `held`. */
  async decide(held: Iterable<{ id: string; expires_at: number }>, now = Date.now()): Promise<ExpiryDecision> {
    const due = [...held].filter((meta) => meta.expires_at <= now + this.marginMs);
    const expired = due.filter((meta) => meta.expires_at <= now).map((meta) => meta.id);
    if (due.length === 0) return { renew: [], drop: [] };
    if (!this.#namers) return { renew: [], drop: expired };
    if (expired.length === 0 && now - this.#checked < Math.min(this.marginMs / 4, MAX_CHECK_MS)) return { renew: [], drop: [] };
    this.#checked = now;
    const named = await this.#namers.named(new Set(due.map((meta) => meta.id)));
    return { renew: due.filter((meta) => named.has(meta.id)).map((meta) => meta.id), drop: expired.filter((id) => !named.has(id)) };
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
