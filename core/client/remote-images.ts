/**
 * @module remote-images
 * The images a host reads in place from the remotes its operator named: their names (never
 * their URLs, which may carry credentials) and an image of one published as a specimen without
 * being copied in.
 */
import type { Transport } from './transport.ts';

export class RemoteImages {
  readonly #http: Transport;

  constructor(http: Transport) {
    this.#http = http;
  }

  /** `GET /api/remotes`: the names of the places the host reads images from in place. */
  async names(signal?: AbortSignal): Promise<string[]> {
    const answer = await this.#http.json<{ remotes: { name: string }[] }>('GET', '/api/remotes', { signal });
    return answer.remotes.map((remote) => remote.name);
  }

  /** `PUT /api/specimens/{id}` with `{remote}`: an image of a remote (`NAME/path`) published in place; whether it is a label image. */
  publish(id: string, remote: string, signal?: AbortSignal): Promise<{ id: string; labels: boolean }> {
    return this.#http.json('PUT', `/api/specimens/${encodeURIComponent(id)}`, { body: { remote }, signal });
  }
}
