/**
 * @module s3-service
 * A Redis service whose results live in a real S3 store (Swift with s3api) for the probe
 * bench: a Redis, a Swift with a bucket, and a host on the bench plugin computing for the
 * service itself (`--redis`, `--blob-store s3://BUCKET/probe`, the endpoint and credentials in
 * its environment). `stop` ends all three.
 */
import { createS3Client } from '../../../core/blobs/s3-location.ts';
import { startRedis } from '../../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../../helpers/spawn-host.ts';
import { createBucket, startSwift, type SwiftServer } from '../../helpers/swift-server.ts';
import { benchHostArgs, benchSpecimens, buildBenchPlugins } from '../host-helpers.ts';

const BUCKET = 'vitrine-probe';

export interface S3Service {
  host: RunningHost;
  swift: SwiftServer;
  stop(): Promise<void>;
}

export async function startS3Service(extra: string[] = []): Promise<S3Service> {
  const [swift, redis] = await Promise.all([startSwift(), startRedis()]);
  try {
    const s3 = createS3Client(swift.endpoint);
    process.env.AWS_ACCESS_KEY_ID = swift.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = swift.secretAccessKey;
    await createBucket(s3, BUCKET);
    s3.destroy();
    const store = ['--redis', redis.url, '--blob-store', `s3://${BUCKET}/probe`];
    const args = [...benchHostArgs(buildBenchPlugins(), benchSpecimens()), '--no-viewer', ...store, ...extra];
    const host = await spawnHost(args, { env: { ...process.env, ...swift.env } });
    return {
      host,
      swift,
      async stop() {
        await host.stop();
        await Promise.all([swift.stop(), redis.stop()]);
      },
    };
  } catch (error) {
    await Promise.all([swift.stop(), redis.stop()]);
    throw error;
  }
}
