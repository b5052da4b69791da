/**
 * @module log-writers
 * Clients of every kind that change rooms as fast as a host answers (marks added, changed and
 * removed, marks imported in bulk, layers added, changed and removed, the view, the static
 * specimen shown, a closed room's access, snapshots taken), each noting what the host
 * acknowledged and what it refused for want of room (507). They run until the host is gone or
 * they are told to stop; each has at most one request under way, so at most one change of each
 * writer may be kept without its answer. room-log-check.ts then checks each room against its log.
 */

export const ROOMS = { marks: 'log-marks', bulk: 'log-bulk', scene: 'log-scene', board: 'log-board', closed: 'log-closed' } as const;

/** Marks per bulk write: a batch the data folder writes as an import, in several transactions. */
export const BULK_MARKS = 5000;

/** What the writers were told: each acknowledged change, by kind. */
export interface Acked {
  /** Mark ids whose add was answered, and of those the ones changed (to their last answered label) and removed. */
  added: Set<string>;
  changed: Map<string, string>;
  removed: Set<string>;
  /** Answered writes of each kind (a write of marks, a layer's add, change or removal, ...). */
  writes: Record<'marks' | 'bulk' | 'layers' | 'views' | 'entries' | 'access', number>;
  /** Snapshots answered, with the log seq each answer named. */
  snapshots: Map<string, number>;
  /** Answers of every kind, and refusals for want of room. */
  count: number;
  refused: number;
  /** Each writer's next write: a writer started again goes on where it was, so no write is the same as one before it. */
  next: Record<string, number>;
}

export function noneAcked(): Acked {
  const writes = { marks: 0, bulk: 0, layers: 0, views: 0, entries: 0, access: 0 };
  return { added: new Set(), changed: new Map(), removed: new Set(), writes, snapshots: new Map(), count: 0, refused: 0, next: {} };
}

/** What a write came to: answered, refused for want of room, or anything else (a race the writer lost). */
type Outcome = 'acked' | 'full' | 'other';

interface Writers {
  /** Ends once every writer has stopped (the host went, or `stop` was called). */
  done: Promise<void>;
  stop(): void;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function outcome(status: number, ok: number[]): Outcome {
  if (ok.includes(status)) return 'acked';
  return status === 507 ? 'full' : 'other';
}

/** Every writer's loop against the host at `url`; `owner` is the bearer token of the closed room's owner. */
export function startWriters(url: string, owner: string, acked: Acked): Writers {
  let stopped = false;
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method, headers: { ...JSON_HEADERS, ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const loop = async (write: (i: number) => Promise<Outcome>, name: string) => {
    while (!stopped) {
      const i = (acked.next[name] = (acked.next[name] ?? -1) + 1);
      let done: Outcome;
      try {
        done = await write(i);
      } catch {
        return;
      }
      if (done === 'acked') acked.count++;
      if (done === 'full') acked.refused++;
    }
  };
  const marks = (client: number) => {
    const own: string[] = [];
    return async (i: number) => {
      const room = `/api/rooms/${ROOMS.marks}/annotations`;
      if (i % 5 === 3 && own.length > 0) {
        const id = own[i % own.length]!;
        const label = `c${client}-${i}`;
        const response = await send('PATCH', `${room}/${id}`, { label });
        if (response.status === 200) acked.changed.set(id, label);
        return count(response.status, [200], 'marks');
      }
      if (i % 7 === 6 && own.length > 1) {
        const id = own.shift()!;
        const response = await send('DELETE', `${room}/${id}`);
        if (response.status === 204) acked.removed.add(id);
        return count(response.status, [204], 'marks');
      }
      const response = await send('POST', room, { annotations: [0, 1].map((k) => ({ kind: 'point', points: [[client, i, k]] })) });
      if (response.status === 201) {
        const { annotations } = (await response.json()) as { annotations: { id: string }[] };
        for (const { id } of annotations) acked.added.add(id);
        own.push(...annotations.map((a) => a.id));
      }
      return count(response.status, [201], 'marks');
    };
  };
  const count = (status: number, ok: number[], kind: keyof Acked['writes']): Outcome => {
    const done = outcome(status, ok);
    if (done === 'acked') acked.writes[kind]++;
    return done;
  };
  const bulk = async (i: number) => {
    const annotations = Array.from({ length: BULK_MARKS }, (_, k) => ({ kind: 'point', points: [[i, k, 0]], label: `bulk ${i}` }));
    return count((await send('POST', `/api/rooms/${ROOMS.bulk}/annotations`, { annotations })).status, [201], 'bulk');
  };
  const layers = async (i: number) => {
    const id = `l${i % 8}`;
    const path = `/api/rooms/${ROOMS.scene}/layers`;
    // Eight layers added, then changed, one in three removed and added again.
    if (i < 8) return count((await send('POST', path, { id, source: { function: 'ramp', params: { n: 2 + (i % 3) } } })).status, [201], 'layers');
    if (i % 3 === 0) {
      const removed = await send('DELETE', `${path}/${id}`);
      if (removed.status !== 204) return count(removed.status, [], 'layers');
      acked.writes.layers++;
      acked.count++;
      return count((await send('POST', path, { id, source: { function: 'ramp', params: { n: 2 } } })).status, [201], 'layers');
    }
    return count((await send('PATCH', `${path}/${id}`, { opacity: (i % 10) / 10 })).status, [200], 'layers');
  };
  const views = async (i: number) => count((await send('PUT', `/api/rooms/${ROOMS.board}/view`, { opacity: (i % 97) / 100 })).status, [200], 'views');
  const entries = async () => count((await send('PUT', `/api/rooms/${ROOMS.board}/entry`, { specimen: 'tri' })).status, [200], 'entries');
  const access = async (i: number) => {
    const body = { editors: [], viewers: [`viewer${i % 5}`], public: i % 2 ? 'read' : 'none' };
    return count((await send('PUT', `/api/rooms/${ROOMS.closed}/access`, body, { authorization: `Bearer ${owner}` })).status, [200], 'access');
  };
  const snapshots = async (i: number) => {
    // A snapshot of the same room unchanged is the same one: the view moves first (its own change, logged too).
    await send('PUT', `/api/rooms/${ROOMS.scene}/view`, { opacity: (i % 89) / 100 });
    const response = await send('POST', `/api/rooms/${ROOMS.scene}/snapshots`);
    if (response.status !== 201) return outcome(response.status, []);
    const { id, log_seq } = (await response.json()) as { id: string; log_seq: number };
    acked.snapshots.set(id, log_seq);
    return 'acked' as const;
  };
  const all = { marks1: marks(1), marks2: marks(2), marks3: marks(3), bulk, layers, views, entries, access, snapshots };
  return { done: Promise.all(Object.entries(all).map(([name, write]) => loop(write, name))).then(() => undefined), stop: () => void (stopped = true) };
}
