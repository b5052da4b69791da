/**
 * @module people-client
 * People, as the client asks about them: whom the host takes the client for (its token, or
 * nobody), and who may read and write a room. With both, `mayUse` (wire/room-access.ts) says
 * what the client may do there before it tries.
 */
import type { AccessAnswer, Asker } from '../wire/room-access.ts';
import type { Transport } from './transport.ts';

export class PeopleClient {
  readonly #http: Transport;

  constructor(http: Transport) {
    this.#http = http;
  }

  /** `GET /api/me`: whom the host takes this client for (named `anonymous` when nobody is known). */
  me(signal?: AbortSignal): Promise<Asker> {
    return this.#http.json('GET', '/api/me', { signal });
  }

  /** `GET /api/rooms/{room}/access`: who may read and write `room` (an open room: no owner, `public: "write"`). */
  access(room: string, signal?: AbortSignal): Promise<AccessAnswer> {
    return this.#http.json('GET', `/api/rooms/${encodeURIComponent(room)}/access`, { signal });
  }
}
