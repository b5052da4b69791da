/**
 * @module s3-bucket-check
 * Whether the bucket `--blob-store s3://BUCKET` names exists, asked once when a host or a worker
 * starts. A bucket the store says does not exist is a mistake in the command line (a typo, or a
 * bucket never created): starting anyway would only turn every result into a 503 later, so the
 * process refuses to start and says which bucket, where. A store that does not answer is not
 * such a mistake: the process starts, and the store's reads answer 503 while it is away.
 */
import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';

/** How long the start waits for the store's answer before going on without it, ms. */
const CHECK_MS = 5000;

/** True only when the store answered that `bucket` does not exist. */
export async function bucketMissing(client: S3Client, bucket: string, waitMs = CHECK_MS): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(waitMs) });
    return false;
  } catch (error) {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NoSuchBucket' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
  }
}

/** The refusal a process prints when its bucket does not exist. */
export function missingBucketMessage(bucket: string, endpoint: string | null): string {
  const where = endpoint ?? "AWS's default endpoint (no --s3-endpoint or AWS_ENDPOINT_URL_S3 given)";
  return `the bucket '${bucket}' of --blob-store does not exist at ${where}: create it first, or name another bucket`;
}
