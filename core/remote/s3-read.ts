/**
 * @module s3-read
 * One read from an `s3://BUCKET[/PREFIX]` remote: a GetObject (with a `Range` when asked)
 * through the S3 client the blob store uses (the endpoint of `--s3-endpoint`, credentials and
 * region from the standard AWS settings). A missing object is "no such key"; any other failure
 * throws a RemoteFault. The bucket is the remote's own: a key never leaves it. A HeadObject
 * asks only the version an object is now.
 */
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { rangeHeader, RemoteFault, type ByteRange, type RemoteBytes } from './remote-bytes.ts';

/** Bucket and key of an `s3://BUCKET/KEY` URL. */
function bucketKey(url: string): { bucket: string; key: string } {
  const rest = url.slice('s3://'.length);
  const slash = rest.indexOf('/');
  return { bucket: rest.slice(0, slash), key: decodeURIComponent(rest.slice(slash + 1)).replace(/^\/+/, '') };
}

/** What `answer` resolves to, or undefined when the object is missing. */
async function unlessMissing<T>(answer: () => Promise<T>): Promise<T | undefined> {
  try {
    return await answer();
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'NoSuchKey' || name === 'NotFound') return undefined;
    throw error;
  }
}

export async function s3Read(
  client: S3Client,
  url: string,
  range: ByteRange | undefined,
  signal: AbortSignal,
  maxBytes: number,
): Promise<RemoteBytes | undefined> {
  const { bucket, key } = bucketKey(url);
  return unlessMissing(async () => {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range && rangeHeader(range) }), { abortSignal: signal });
    const size = answer.ContentLength ?? 0;
    if (size > maxBytes) throw new RemoteFault('failed', `its object of ${size} bytes is over the ${maxBytes}-byte limit`);
    const bytes = answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array(0);
    const total = /\/(\d+)$/.exec(answer.ContentRange ?? '');
    return { bytes, etag: answer.ETag ?? null, lastModified: answer.LastModified?.toUTCString() ?? null, size: total ? Number(total[1]) : bytes.length };
  });
}

/** The version the object at `url` is now (a HeadObject: its ETag and Last-Modified, no bytes); undefined when it is missing. */
export async function s3Head(client: S3Client, url: string, signal: AbortSignal): Promise<RemoteBytes | undefined> {
  const { bucket, key } = bucketKey(url);
  return unlessMissing(async () => {
    const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
    return { bytes: new Uint8Array(0), etag: answer.ETag ?? null, lastModified: answer.LastModified?.toUTCString() ?? null, size: answer.ContentLength };
  });
}
