/**
 * @module openapi-tags
 * Shapes the collected OpenAPI document for readers: every public operation gets one of five
 * tags (specimens, processing, jobs, rooms and events, operations), so `/docs` shows them in
 * groups rather than one flat list; routes that are not part of the public API (the viewer's
 * page and assets, the browser client file, the federation WebSocket, the docs themselves)
 * are left out; and the catalog, served at `/api/specimens` and `/api/specimens/` alike, is
 * listed once, as the specification writes it (with the slash).
 */

type Operations = Record<string, Record<string, unknown>>;

/** The groups, in the order `/docs` shows them. */
export const API_TAGS = [
  { name: 'specimens', description: 'The catalog, metadata, thumbnails and data of static and dynamic specimens' },
  { name: 'processing', description: 'Functions, their parameter schemas, direct invocation and the room cache' },
  { name: 'jobs', description: 'Background computations: progress, events, results and cancellation' },
  { name: 'rooms and events', description: 'Rooms: what they show (their entry, view and scene of layers), snapshots of them, and Server-Sent Events' },
  { name: 'operations', description: 'Health, readiness and metrics for operators' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

/** One-line summaries of the host's own routes, where the route did not state one. */
const SUMMARIES: Record<string, string> = {
  'get /api/specimens/': 'The catalog: every specimen, static and dynamic',
  'get /api/specimens/reload': 'Scan the specimens directory again',
  'get /api/specimens/{id}': 'One specimen’s full metadata (a dynamic one’s parameter schema included)',
  'get /api/specimens/{id}/thumbnail': 'The specimen’s thumbnail image',
  'post /api/specimens/{id}/start': 'Start computing a dynamic specimen as a job',
  'get /api/specimens/{id}/data': 'The specimen’s data (a file, an envelope or a typed result)',
  'post /api/specimens/{id}/data': 'The specimen’s data, parameters in the body',
  'get /api/processing/functions': 'Every registered function with its schema and return type',
  'get /api/processing/functions/{name}/schema': 'One function’s parameter schema',
  'post /api/processing/functions/{name}/start': 'Start a function as a job (no specimen needed)',
  'post /api/processing/invoke': 'Call a function and get its typed result as JSON',
  'get /api/processing/cache/stats': 'The room cache’s entries and size',
  'post /api/processing/cache/clear': 'Empty the room cache',
  'get /api/jobs/{id}/progress': 'A job’s status and its progress messages since a seq',
  'get /api/jobs/{id}/result': 'A finished job’s typed result',
  'delete /api/jobs/{id}': 'Cancel a job',
  'get /healthz': 'Liveness: the process answers',
  'get /readyz': 'Readiness: plugins loaded and Redis reachable where configured',
  'get /metrics': 'Prometheus metrics',
};

/** The tag of a public path, or null for a route that is not part of the public API. */
export function tagOf(path: string): ApiTag | null {
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return 'operations';
  if (!path.startsWith('/api/')) return null;
  const area = path.split('/')[2];
  if (area === 'specimens') return 'specimens';
  if (area === 'jobs') return 'jobs';
  if (area === 'rooms' || area === 'events' || area === 'snapshots' || area === 'colormaps') return 'rooms and events';
  // Functions, cache, uploads, results and anything new under /api/ compute or hold results.
  return 'processing';
}

/** Tags every operation, drops internal routes and the slash-less twin of a path, orders paths by group. */
export function organiseOperations(paths: Record<string, Operations>): { tags: { name: string; description: string }[]; paths: Record<string, Operations> } {
  const order = new Map<string, number>(API_TAGS.map((t, i) => [t.name, i]));
  const kept: [string, Operations, number][] = [];
  for (const [path, operations] of Object.entries(paths)) {
    const tag = tagOf(path);
    if (tag === null) continue;
    if (!path.endsWith('/') && paths[`${path}/`]) continue;
    for (const [method, operation] of Object.entries(operations)) {
      operation.tags = [tag];
      operation.summary ??= SUMMARIES[`${method} ${path}`];
    }
    kept.push([path, operations, order.get(tag)!]);
  }
  kept.sort((a, b) => a[2] - b[2]);
  return { tags: API_TAGS.map((t) => ({ ...t })), paths: Object.fromEntries(kept.map(([path, operations]) => [path, operations])) };
}
