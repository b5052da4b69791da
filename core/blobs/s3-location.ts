/**
 * @module s3-location
 * The client that reaches an S3 blob store (`s3://BUCKET[/PREFIX]`, parsed in s3-url.ts).
 * The endpoint is `--s3-endpoint` (else the standard `AWS_ENDPOINT_URL_S3` or
 * `AWS_ENDPOINT_URL`, else AWS itself); credentials and region come from the standard AWS
 * environment and files, read by the SDK. Buckets are addressed by path, which every
 * S3-compatible server understands (MinIO, Ceph, Swift's s3api), and checksums are computed
 * and checked only where the S3 API requires them, since such servers refuse the newer
 * checksum headers. Credentials never enter a message this module makes.
 */
import { S3Client } from '@aws-sdk/client-s3';

/** The endpoint to use: the option, else the standard environment variables, else none (AWS). */
export function s3EndpointOf(option: string | null, env: NodeJS.ProcessEnv = process.env): string | null {
  return option ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? null;
}

/** Longest wait for a connection, and for the first byte of an answer, in ms. */
const CONNECT_MS = 5000;
const ANSWER_MS = 30_000;

export function createS3Client(endpoint: string | null): S3Client {
  // The SDK warns on every start under Node 20 that its releases from 2027 will need Node 22.
  // The host runs the SDK version its lock file names, which supports Node 20, so the warning
  // tells an operator nothing they can act on; an operator who sets the variable keeps their value.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    ...(endpoint ? { endpoint } : {}),
    // A region is needed to sign; S3-compatible servers accept the default one.
    region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: { connectionTimeout: CONNECT_MS, requestTimeout: ANSWER_MS },
  });
}
