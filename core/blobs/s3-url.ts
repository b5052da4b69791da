/**
 * @module s3-url
 * `s3://BUCKET[/PREFIX]`, the address of an S3 blob store: parsed here without loading the
 * SDK, so checking options stays cheap for hosts that never use one.
 */
export interface S3Location {
  bucket: string;
  /** Prepended to every object key: empty, or ending in `/`. */
  prefix: string;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Whether `url` names an S3 blob store (`s3://BUCKET[/PREFIX]`). */
export function isS3Url(url: string): boolean {
  return parseS3Url(url) !== null;
}

/** The bucket and key prefix of `s3://BUCKET[/PREFIX]`, or null when `url` is not one. */
export function parseS3Url(url: string): S3Location | null {
  const match = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(url);
  if (!match || !BUCKET.test(match[1]!)) return null;
  const path = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (path.split('/').some((part) => part === '.' || part === '..')) return null;
  return { bucket: match[1]!, prefix: path ? `${path}/` : '' };
}

