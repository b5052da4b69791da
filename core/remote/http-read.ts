/**
 * @module http-read
 * One read from an http(s) remote: a GET (with a `Range` when asked), redirects followed only
 * while they stay inside the remote's prefix, and a lookup that checks every address a host
 * name resolves to, so a name that points at a loopback or private address is refused unless
 * the remote's own URL names such a host (the check sits in the connection's own lookup: the
 * address checked is the address connected to). A 404 is "no such key" (Zarr's missing chunk);
 * any other failure throws a RemoteFault saying why.
 */
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { readSharedBody } from '../memory/shared-body.ts';
import { isPrivateAddress } from './private-address.ts';
import { RemoteList, type Remote } from './remote-list.ts';
import { rangeHeader, RemoteFault, type ByteRange, type RemoteBytes } from './remote-bytes.ts';

/** Redirects followed at most, each inside the remote's prefix. */
const MAX_REDIRECTS = 5;

/** A lookup refusing every private address unless the remote names a private host itself. */
function guardedLookup(remote: Remote): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const bad = remote.allowsPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(new RemoteFault('refused', `'${hostname}' resolves to ${bad.address}, a loopback or private address no --remote names`), '', 4);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The part of a whole body a range asks for (a server that ignores `Range` answers it all). */
function sliceOf(bytes: Uint8Array, range: ByteRange): Uint8Array {
  if ('suffixLength' in range) return bytes.subarray(Math.max(0, bytes.length - range.suffixLength));
  return bytes.subarray(range.offset, range.offset + range.length);
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Uint8Array;
}

function get(remote: Remote, url: string, range: ByteRange | undefined, signal: AbortSignal, maxBytes: number, method = 'GET'): Promise<Answer> {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !remote.allowsPrivate && isPrivateAddress(host)) {
    return Promise.reject(new RemoteFault('refused', `${host} is a loopback or private address no --remote names`));
  }
  const client = parsed.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': 'vitrine-remote', 'accept-encoding': 'identity' };
  if (range) headers.range = rangeHeader(range);
  if (parsed.username) {
    const user = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
  }
  return new Promise((resolve, reject) => {
    const request = client.request(parsed, { method, headers, lookup: guardedLookup(remote), signal }, (response) => {
      const declared = Number(response.headers['content-length']);
      // A HEAD's length is the body it would send, not one it sends.
      if (method === 'GET' && Number.isFinite(declared) && declared > maxBytes) {
        response.destroy();
        return reject(new RemoteFault('failed', `its answer of ${declared} bytes is over the ${maxBytes}-byte limit`));
      }
      // Gathered into shared memory: the bytes go to a decoding thread without another copy, and
      // the cache keeps the same bytes.
      const tooLarge = () => new RemoteFault('failed', `its answer is over the ${maxBytes}-byte limit`);
      readSharedBody(response, { maxBytes, declaredBytes: Number.isFinite(declared) ? declared : undefined, tooLarge }).then(
        (body) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: new Uint8Array(body.buffer, body.byteOffset, body.length) }),
        (error: unknown) => {
          response.destroy();
          reject(error);
        },
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) => reject(request.reusedSocket && STALE_CODES.has(error.code ?? '') ? new StaleSocket(error) : error));
    request.end();
  });
}

/** How a kept-alive connection the remote closed while idle fails the next request sent on it. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** A request that failed only because the kept-alive connection it went out on was closed meanwhile. */
class StaleSocket extends Error {
  constructor(readonly reason: Error) {
    super(reason.message);
  }
}

/**
 * {@link get}, sent again once on a new connection when the kept-alive one it went out on had
 * been closed by the remote (a server's idle timeout racing the request): the remote never saw
 * it, and a GET or HEAD may be asked twice. Any other failure, or a second one, is the remote's.
 */
async function getOnce(...args: Parameters<typeof get>): Promise<Answer> {
  try {
    return await get(...args);
  } catch (error) {
    if (!(error instanceof StaleSocket)) throw error;
    try {
      return await get(...args);
    } catch (again) {
      throw again instanceof StaleSocket ? again.reason : again;
    }
  }
}

/**
 * Reads `url` of `remote` (following redirects inside its prefix); undefined for a 404. With
 * `head`, asks only its headers (a HEAD): the version it is now, no bytes.
 */
export async function httpRead(
  remote: Remote,
  url: string,
  range: ByteRange | undefined,
  signal: AbortSignal,
  maxBytes: number,
  head = false,
): Promise<RemoteBytes | undefined> {
  let at = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const answer = await getOnce(remote, at, range, signal, maxBytes, head ? 'HEAD' : 'GET');
    const { status, headers, body } = answer;
    if (status >= 300 && status < 400 && headers.location) {
      const next = RemoteList.within(remote, headers.location, at);
      if (!next) throw new RemoteFault('refused', 'it redirected outside the remote\'s prefix');
      at = next;
      continue;
    }
    if (status === 404 || status === 410) return undefined;
    if (status !== 200 && status !== 206) throw new RemoteFault('failed', `it answered HTTP ${status}`);
    const bytes = range && status === 200 ? sliceOf(body, range) : body;
    return { bytes, etag: headerOf(headers.etag), lastModified: headerOf(headers['last-modified']), size: sizeOf(status, headers, body, head) };
  }
  throw new RemoteFault('failed', `more than ${MAX_REDIRECTS} redirects`);
}

/** The whole object's length: a 206's `Content-Range` total, a HEAD's `Content-Length`, a 200's body. */
function sizeOf(status: number, headers: http.IncomingHttpHeaders, body: Uint8Array, head: boolean): number | undefined {
  if (status === 206) {
    const total = /\/(\d+)\s*$/.exec(headers['content-range'] ?? '');
    return total ? Number(total[1]) : undefined;
  }
  if (!head) return body.length;
  const length = Number(headers['content-length']);
  return Number.isFinite(length) ? length : undefined;
}

function headerOf(value: string | string[] | undefined): string | null {
  return typeof value === 'string' ? value : null;
}
