/**
 * @module url-state
 * The page URL carries the room, the specimen and its parameters
 * (`/?specimen=shape&room=lab&params={"segments":24}`), so a second window on the same URL
 * asks for the same data and is served from the room cache; `follow=1` turns on "follow
 * room" there too; `cam=px,py,pz,tx,ty,tz` is where the camera was left (position and the
 * point it orbits), kept while the same specimen or function is shown; `snapshot=<id>` opens a
 * snapshot of a room read-only (snapshot-view.ts); `name=<name>` is what the page calls itself
 * in a room's list of who is here when nobody is signed in (kept as the rest changes). Updates
 * replace the history entry rather than pushing one per slider step.
 */

/** What the URL says to show. */
export interface UrlState {
  specimen: string | null;
  /** A function without a specimen, shown instead of a specimen. */
  fn: string | null;
  room: string;
  /** Parameters as given in the URL (validated later against the schema); null when absent or not an object. */
  params: Record<string, unknown> | null;
  /** The "follow room" switch is on (`follow=1`). */
  follow: boolean;
  /** A snapshot to open read-only (`snapshot=<id>`) instead of anything else. */
  snapshot?: string | null;
}

/** The camera pose a link carries (`cam`), or null when absent or malformed. */
export function readCameraPose(location: Location = window.location): number[] | null {
  const raw = new URLSearchParams(location.search).get('cam');
  const pose = raw?.split(',').map(Number) ?? [];
  return pose.length === 6 && pose.every(Number.isFinite) ? pose : null;
}

/** Writes the camera pose into the URL, rounded (a link stays short). */
export function writeCameraPose(pose: readonly number[]): void {
  const query = new URLSearchParams(window.location.search);
  query.set('cam', pose.map((v) => Number(v.toPrecision(5))).join(','));
  window.history.replaceState(null, '', `${window.location.pathname}?${query.toString()}${window.location.hash}`);
}

/** The name the page gives itself in a room's presence (`?name=`), or undefined. */
export function readPageName(location: Location = window.location): string | undefined {
  return new URLSearchParams(location.search).get('name')?.trim() || undefined;
}

/** The room id a request names when it names none. */
export const DEFAULT_ROOM = 'service';

/** Reads the state from `location`. */
export function readUrlState(location: Location = window.location): UrlState {
  const query = new URLSearchParams(location.search);
  let params: Record<string, unknown> | null = null;
  const raw = query.get('params');
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) params = parsed as Record<string, unknown>;
    } catch {
      params = null;
    }
  }
  return {
    specimen: query.get('specimen'),
    fn: query.get('function'),
    room: query.get('room')?.trim() || DEFAULT_ROOM,
    params,
    follow: query.get('follow') === '1',
    snapshot: query.get('snapshot'),
  };
}

/** Writes the state into the URL without adding a history entry. */
export function writeUrlState(state: UrlState): void {
  const query = new URLSearchParams();
  if (state.specimen) query.set('specimen', state.specimen);
  else if (state.fn) query.set('function', state.fn);
  if (state.room !== DEFAULT_ROOM) query.set('room', state.room);
  if ((state.specimen || state.fn) && state.params && Object.keys(state.params).length > 0)
    query.set('params', JSON.stringify(state.params));
  if (state.follow) query.set('follow', '1');
  const now = new URLSearchParams(window.location.search);
  const name = now.get('name');
  if (name) query.set('name', name);
  // The camera stays in the link while it shows the same thing.
  const cam = now.get('cam');
  if (cam && now.get('specimen') === query.get('specimen') && now.get('function') === query.get('function')) query.set('cam', cam);
  const search = query.toString();
  const url = `${window.location.pathname}${search ? `?${search}` : ''}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(null, '', url);
  }
}
