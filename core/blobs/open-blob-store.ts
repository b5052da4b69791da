/**
 * @module open-blob-store
 * The blob store a host or a `vitrine worker` uses, from `--blob-store`: the chunks in Redis
 * (the service's own Redis, or one of their own), or an S3-compatible object store for
 * `s3://BUCKET[/PREFIX]` (its SDK loaded only then). Also which Redis carries blob traffic:
 * with an object store, none but the service's own.
 */
import type { Redis } from 'ioredis';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { BlobStore } from './blob-store.ts';
import { RedisBlobStore } from './redis-blob-store.ts';
import { parseS3Url } from './s3-url.ts';

/** The Redis URL result bytes travel to: `blobStore` when it is a Redis, else the service's. */
export function blobRedisUrl(serviceUrl: string, blobStore: string | null): string {
  return blobStore && !parseS3Url(blobStore) ? blobStore : serviceUrl;
}

export async function openBlobStore(
  options: { blobStore: string | null; s3Endpoint: string | null; s3TimeoutSeconds: number },
  redis: { client: Redis; isServiceRedis: boolean },
  budget: ResultBudget<StoredResult> | null,
  keepMs?: number,
): Promise<BlobStore> {
  const location = options.blobStore ? parseS3Url(options.blobStore) : null;
  if (location) {
    const [{ S3BlobStore }, { createS3Client, s3EndpointOf }, { bucketMissing, missingBucketMessage }] = await Promise.all([
      import('./s3-blob-store.ts'),
      import('./s3-location.ts'),
      import('./s3-bucket-check.ts'),
    ]);
    const endpoint = s3EndpointOf(options.s3Endpoint);
    const client = createS3Client(endpoint);
    // A bucket that does not exist is refused at start; a store that does not answer is not.
    if (await bucketMissing(client, location.bucket)) {
      client.destroy();
      throw new Error(missingBucketMessage(location.bucket, endpoint));
    }
    return new S3BlobStore(client, location, budget, keepMs, options.s3TimeoutSeconds * 1000);
  }
  // Only a Redis that never evicts (the service's own) may stream a cold result as it arrives.
  return new RedisBlobStore(redis.client, budget, keepMs, redis.isServiceRedis);
}
