/**
 * @module core-layers
 * The layering of `core/`: its rooms (a folder, or a file at its root) from low to high. A room
 * may import from the rooms of lower layers and from itself, never from a room of its own
 * layer or of a higher one: vocabulary sits low, what puts a host together sits high, and
 * nothing low learns about what is built on it. Type imports and dynamic imports count like
 * any other. A new folder gets a place here before it imports or is imported.
 */

/** Low to high. Rooms of one layer are independent of each other. */
export const LAYERS: readonly (readonly string[])[] = [
  // The error catalog's codes, an area a file, which errors.ts gathers.
  ['errors/'],
  [
    'errors.ts',
    'redact-credentials.ts',
    'loading/',
    // The option groups of concepts that stand above options.ts (the agent's), read by it from
    // below so that no folder it gathers imports it back.
    'options/',
  ],
  // What a plugin writes and returns: the SDK's types. Keeping a thread within bounds: garbage
  // collected when idle or under pressure, queued work refused past its bound.
  ['sdk/', 'memory/'],
  // The binary envelope; the wire shapes and colour maps the host and every client share.
  ['envelope/', 'wire/'],
  // File formats: each one's reader and writer, over the SDK's result types.
  ['formats/'],
  // Vocabulary: stored results, parameters, events, the wire types of the client.
  ['results/', 'params/', 'events/', 'client/', 'assets/'],
  // Mesh geometry: a mesh grown in typed arrays with smooth normals, its box, its simplification
  // (edge collapse, grid clustering). Below the three that shape surfaces (labels/, delivery/,
  // meshes/), so none of them reaches sideways into another for it.
  ['geometry/'],
  // The room cache and its budget, and answers made once for many readers; the Redis plumbing
  // every Redis half stands on (connections, keys and channels, the script table, pub/sub
  // fan-out, failures as 503s, time limits).
  // A lone host's data folder: its embedded store, lock, format and folder of bytes.
  ['cache/', 'redis/', 'durable/'],
  // A room's log (its entries, each home's store of it, what each change is logged as) and
  // replay's reading of it: below every store of a room, which appends its change's entry in
  // the write of the change itself.
  ['history/'],
  // Result bytes by content hash (the blob store interface, its memory, Redis and S3 stores);
  // what a room holds beside its cache entry (the room board, its memory and Redis halves).
  // Who a request is and what each room lets them do (users, tickets, access; memory, Redis, lmdb).
  ['blobs/', 'rooms/', 'people/'],
  // A room's annotations: their checks, measurements, forms, and their store in memory or Redis.
  ['annotations/'],
  // Edits of a labels layer: the ops on a chunked volume, undo and redo, and the stores that
  // keep the edits (memory, data folder, Redis), each with its log entry in one write.
  ['edits/'],
  // Stores of rooms' scenes (memory, disk and Redis), with the checks of what a scene may hold.
  ['scenes/'],
  // Stores of snapshots, whose documents are checked as scenes and marks are. Below delivery and
  // the worker threads that run them: a volume's pyramid (with the block reductions `max_dim`
  // shares), and a segmentation's label index, surfaces and renumbering. Images read in place
  // from the remotes an operator names (their reads, cache and OME-Zarr metadata).
  ['catalog/', 'uploads/', 'snapshots/', 'pyramid/', 'labels/', 'remote/'],
  // A plugin bundle read once and checked file by file, its signature, and the checked bundles a
  // host keeps by bundle id; the host's options of plugin versions and trust.
  ['bundles/'],
  ['registry/', 'delivery/'],
  // A surface's levels of detail (Neuroglancer's multi-resolution meshes, GLB fragments), over
  // segmentations' surfaces and geometry's simplifier; built on the worker threads above.
  ['meshes/'],
  // The versions of each plugin a host keeps side by side: reloaded, swapped one plugin at a
  // time, and shared with a Redis service's other hosts (the share's memory and Redis homes).
  ['versions/'],
  // Who is in a room now (presence, live poses).
  ['presence/'],
  // The software renderers of thumbnails and room pictures, which the worker threads run.
  ['thumbnails/'],
  // The worker threads' transport and their entry, which runs delivery and format work.
  ['workers/'],
  ['invoke/'],
  ['python/', 'inputs/'],
  // The cache-first result service, above the invokers it runs.
  ['serving/', 'testing/'],
  ['jobs/', 'zarr/'],
  // The host's options, resolved once: above the folders whose option groups it gathers.
  ['options.ts'],
  ['request/'],
  // What makes a room live, each service above its concept's store: published specimens
  // (published/), a room's entry and view as requests change them (rooms/service/), a scene's
  // layers computed and kept in step (scenes/service/), snapshots taken and restored
  // (snapshots/service/); a room exported for other eyes: its picture, its Neuroglancer state.
  ['published/'],
  ['rooms/service/'],
  ['scenes/service/'],
  // Edits of rooms' labels layers: each layer loaded over its base result, edits kept in one order.
  ['edits/service/'],
  ['snapshots/service/'],
  ['exports/'],
  // The services the routes share.
  ['host-context.ts'],
  ['federation/', 'mcp/'],
  // The headset's agent: its socket, its rooms' conversations, the model behind them, voice
  // (its route is http/agent/).
  ['agent/'],
  ['scale/', 'http/'],
  ['assembly/'],
  ['app.ts'],
  ['server.ts', 'tls/'],
  ['cli/'],
  // The package entry `vitrine`: it gathers the SDK's types and the envelope decoder.
  ['index.ts'],
];

/** Files that are rooms of their own rather than part of their folder's. */
export const ENTRY_FILES: readonly string[] = [];

/**
 * Imports against the table that are known and on their way out; each must still occur (an
 * entry that no longer matches fails the layering test, so the list only ever shrinks).
 */
export const KNOWN_EXCEPTIONS: readonly string[] = [];

/**
 * Folders (or a file) inside a folder that are rooms of their own: a concept's service, which
 * stands high in the layers, kept beside the concept's store, which stands low
 * (`scenes/service/` above `scenes/`).
 */
export const NESTED_ROOMS: readonly string[] = LAYERS.flat().filter((room) => room.indexOf('/') < room.length - 1);

/** The room of a file given by its path inside core/ (`a/b.ts`, or `c.ts` at the root). */
export function roomOf(rel: string): string {
  if (ENTRY_FILES.includes(rel)) return rel;
  return NESTED_ROOMS.find((room) => rel.startsWith(room)) ?? folderOf(rel);
}

/** The folder (or root file) a path inside core/ belongs to, entry files included. */
export function folderOf(rel: string): string {
  const slash = rel.indexOf('/');
  return slash < 0 ? rel : rel.slice(0, slash + 1);
}

/** A room's layer (0 lowest) in `layers` (core/'s unless told), or undefined when they do not place it. */
export function layerOf(room: string, layers: readonly (readonly string[])[] = LAYERS): number | undefined {
  const at = layers.findIndex((rooms) => rooms.includes(room));
  return at < 0 ? undefined : at;
}
