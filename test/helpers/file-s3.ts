/**
 * @module file-s3
 * A real S3 store (Swift with s3api, swift-server.ts) with one bucket and a client of it,
 * shared by a test file's cases: started before them (with the AWS credentials the store's
 * clients read from the environment), the client destroyed after them (Swift stops with the file).
 */
import { afterAll, beforeAll } from 'vitest';
import { createS3Client } from '../../core/blobs/s3-location.ts';
import { createBucket, startSwift, type SwiftServer } from './swift-server.ts';

export interface FileS3 {
  readonly swift: SwiftServer;
  readonly s3: ReturnType<typeof createS3Client>;
}

/** Called at the top of a file; `swift` and `s3` are set once its beforeAll has run. */
export function fileS3(bucket: string): FileS3 {
  const store = { swift: undefined as unknown as SwiftServer, s3: undefined as unknown as ReturnType<typeof createS3Client> };
  beforeAll(async () => {
    store.swift = await startSwift();
    process.env.AWS_ACCESS_KEY_ID = store.swift.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = store.swift.secretAccessKey;
    store.s3 = createS3Client(store.swift.endpoint);
    await createBucket(store.s3, bucket);
  }, 120_000);
  afterAll(() => store.s3?.destroy());
  return store;
}
