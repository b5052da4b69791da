/**
 * @module layered-remote-cache
 * This process's memory in front of a shared home (the data folder, a service's blob store): a
 * hit in memory answers in the same turn, one in the shared home is copied into memory, and a
 * read is kept in both. A shared home that fails is a miss (the remote is read again), never a
 * fault of the read.
 */
import type { RemoteBytes } from './remote-bytes.ts';
import type { RemoteCache } from './remote-cache.ts';

export class LayeredRemoteCache implements RemoteCache {
  constructor(
    readonly near: RemoteCache,
    readonly shared: RemoteCache,
    readonly warn: (message: string, error: unknown) => void = () => {},
  ) {}

  async get(key: string): Promise<RemoteBytes | undefined> {
    const near = await this.near.get(key);
    if (near) return near;
    const shared = await this.shared.get(key).catch((error: unknown) => {
      this.warn('a remote read kept in the blob plane could not be read back', error);
      return undefined;
    });
    if (shared) await this.near.set(key, shared);
    return shared;
  }

  async set(key: string, value: RemoteBytes): Promise<void> {
    await this.near.set(key, value);
    await this.shared.set(key, value).catch((error: unknown) => {
      this.warn('a remote read could not be kept in the blob plane', error);
    });
  }
}
