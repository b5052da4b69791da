/**
 * @module request-origin
 * The origin (`http://name:port`) a request reached this host by: what absolute URLs handed out
 * in exports (a room's Neuroglancer state) and to agents are built on. The `Host` header was
 * checked before any route ran (a host name or address with an optional port), so no value
 * can make these URLs point elsewhere.
 */

/** What of a request its origin is read from (a Fastify request has it). */
export interface OriginSource {
  protocol: string;
  hostname: string;
  headers: { host?: string | undefined };
}

export function requestOrigin(request: OriginSource): string {
  return `${request.protocol}://${request.headers.host ?? request.hostname}`;
}
