/**
 * The host reads only from the remotes its operator names: a name or URL outside them, a
 * path climbing out of one (plain or percent-encoded), a redirect leaving one's prefix, an
 * `s3://` bucket no remote names, and a host name that resolves to a loopback or private
 * address no remote names are all 400 SPC_ERR_REMOTE_NOT_ALLOWED, before or instead of any
 * read. What cannot be read is a 400 naming the key and the reason.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, namesPrivateHost } from '../../core/remote/private-address.ts';
import { RemoteList } from '../../core/remote/remote-list.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { samplesOf, startRemoteServer, writeV04, writeV05, type ImageSpec, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
let other: RemoteServer;
const NAME = hostname();

beforeAll(async () => {
  remote = await startRemoteServer();
  other = await startRemoteServer();
  const spec: ImageSpec = {
    path: 'images/cells.ome.zarr', axes: 'zyx', dtype: 'uint16', chunks: [4, 4, 4], compression: 'zstd', scale: [1, 1, 1],
    levels: [{ shape: [4, 6, 5], data: samplesOf('uint16', 120) }],
  };
  await writeV05(remote.files, spec, [1, 1, 2]);
  await writeV04(other.files, { ...spec, path: 'secret/cells.ome.zarr' }, '/');
  // Outside the prefix on the same server, and on another server (another origin).
  await writeV04(remote.files, { ...spec, path: 'private/cells.ome.zarr' }, '/');
  remote.redirects.set('images/alias.ome.zarr/', '/images/cells.ome.zarr/');
  remote.redirects.set('images/out.ome.zarr/', '/private/cells.ome.zarr/');
  remote.redirects.set('images/away.ome.zarr/', `${other.url}secret/cells.ome.zarr/`);
  remote.redirects.set('images/climb.ome.zarr/', '/images/%2e%2e/private/cells.ome.zarr/');
  // What cannot be read.
  const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  await writeV05(remote.files, { ...spec, path: 'images/lz4.ome.zarr' });
  const lz4 = JSON.parse(new TextDecoder().decode(remote.files.get('images/lz4.ome.zarr/0/zarr.json')));
  lz4.codecs = [{ name: 'bytes', configuration: { endian: 'little' } }, { name: 'lz4', configuration: {} }];
  remote.files.set('images/lz4.ome.zarr/0/zarr.json', json(lz4));
  await writeV04(remote.files, { ...spec, path: 'images/int64.ome.zarr' }, '/');
  const int64 = JSON.parse(new TextDecoder().decode(remote.files.get('images/int64.ome.zarr/0/.zarray')));
  remote.files.set('images/int64.ome.zarr/0/.zarray', json({ ...int64, dtype: '<i8' }));
  const flat = { version: '0.4', axes: [{ name: 'y' }, { name: 'x' }], datasets: [{ path: '0' }] };
  remote.files.set('images/flat.ome.zarr/.zattrs', json({ multiscales: [flat] }));
  remote.files.set('images/broken.ome.zarr/zarr.json', new TextEncoder().encode('{not json'));
});
afterAll(async () => {
  await remote?.close();
  await other?.close();
});

const host = fileTestApp(async () => ({
  remotes: {
    lab: `${remote.url}images`,
    // The machine's own name, which resolves to a loopback or private address: not named as one.
    byname: `http://${NAME}:${remote.port}/images`,
    bucket: 's3://lab-bucket/zarr',
  },
}));

async function publish(id: string, reference: string): Promise<{ status: number; body: { code?: string; detail?: string } }> {
  const res = await host.app.inject({ method: 'PUT', url: `/api/specimens/${id}`, payload: { remote: reference } });
  return { status: res.statusCode, body: res.json() };
}

describe('which addresses are private', () => {
  it('loopback, private, link-local, carrier-grade NAT and IPv6 local ranges are; public ones are not', () => {
    const local = ['127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'];
    for (const a of [...local, '::1', '::', 'fc00::1', 'fd12::3', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
    expect(namesPrivateHost('127.0.0.1')).toBe(true);
    expect(namesPrivateHost('localhost')).toBe(true);
    expect(namesPrivateHost('data.example.org')).toBe(false);
  });
});

describe('references resolve only inside a remote', () => {
  const list = new RemoteList({ lab: 'https://data.example.org/zarr', bucket: 's3://lab-bucket/zarr' });
  const refused = (reference: string) => {
    try {
      list.resolve(reference);
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return 'resolved';
  };

  it('a name the host knows, and a URL inside its prefix, resolve', () => {
    expect(list.resolve('lab/a/b.ome.zarr').url).toBe('https://data.example.org/zarr/a/b.ome.zarr');
    expect(list.resolve('https://data.example.org/zarr/a.ome.zarr').remote.name).toBe('lab');
    expect(list.resolve('bucket/x.ome.zarr').url).toBe('s3://lab-bucket/zarr/x.ome.zarr');
  });

  it('unknown names, URLs outside, climbing paths and other buckets are refused', () => {
    for (const reference of [
      'nosuch/a.ome.zarr',
      'lab/../secret',
      'lab/a/../../secret',
      'lab/%2e%2e/secret',
      'lab/%2E%2E/secret',
      'lab/a%2f..%2fsecret',
      'lab/%252e%252e/secret',
      'lab/a\\..\\b',
      'lab/./a',
      'lab/%zz',
      'https://data.example.org/other/a.ome.zarr',
      'https://data.example.org.evil.test/zarr/a.ome.zarr',
      'http://127.0.0.1:6379/',
      'http://169.254.169.254/latest/meta-data/',
      's3://other-bucket/zarr/a.ome.zarr',
      's3://lab-bucket/other/a.ome.zarr',
      '',
    ]) {
      expect(refused(reference), reference).toBe('SPC_ERR_REMOTE_NOT_ALLOWED');
    }
  });
});

describe('publishing holds to the remotes', () => {
  it('a loopback remote the operator named is read', async () => {
    const { status } = await publish('ok', 'lab/cells.ome.zarr');
    expect(status).toBe(201);
    const names = await host.app.inject({ method: 'GET', url: '/api/remotes' });
    expect(names.json()).toEqual({ remotes: [{ name: 'bucket' }, { name: 'byname' }, { name: 'lab' }] });
    expect(names.body).not.toContain('127.0.0.1');
  });

  it('outside names, URLs, climbing paths and other buckets: 400 before any read', async () => {
    remote.reset();
    const outside = ['nosuch/cells.ome.zarr', 'lab/../private/cells.ome.zarr', 'lab/%2e%2e/private/cells.ome.zarr', `${other.url}secret/cells.ome.zarr`];
    for (const reference of [...outside, 'http://10.0.0.1/x.ome.zarr', 's3://other-bucket/x.ome.zarr']) {
      const { status, body } = await publish('refused', reference);
      expect(status, reference).toBe(400);
      expect(body.code, reference).toBe('SPC_ERR_REMOTE_NOT_ALLOWED');
    }
    expect(remote.sent.requests).toBe(0);
    expect(other.sent.requests).toBe(0);
  });

  it('a host name resolving to a loopback or private address is refused unless a remote names that address', async () => {
    const resolved = await lookup(NAME, { all: true });
    // The case needs the machine's name to resolve privately, as containers and /etc/hosts make it.
    expect(resolved.some((a) => isPrivateAddress(a.address))).toBe(true);
    remote.reset();
    const { status, body } = await publish('byname', 'byname/cells.ome.zarr');
    expect(status).toBe(400);
    expect(body.code).toBe('SPC_ERR_REMOTE_NOT_ALLOWED');
    expect(body.detail).toMatch(/loopback or private/);
    expect(remote.sent.requests).toBe(0);
  });

  it('redirects are followed inside the prefix only', async () => {
    expect((await publish('alias', 'lab/alias.ome.zarr')).status).toBe(201);
    for (const reference of ['lab/out.ome.zarr', 'lab/away.ome.zarr', 'lab/climb.ome.zarr']) {
      other.reset();
      const { status, body } = await publish('redirected', reference);
      expect(status, reference).toBe(400);
      expect(body.code, reference).toBe('SPC_ERR_REMOTE_NOT_ALLOWED');
      expect(body.detail, reference).toMatch(/redirected outside/);
      expect(other.sent.requests).toBe(0);
    }
  });

  it("what cannot be read is a 400 naming the key and the reason", async () => {
    const cases: [string, RegExp][] = [
      ['lab/none.ome.zarr', /'lab\/none\.ome\.zarr\/zarr\.json'.*neither zarr\.json/],
      ['lab/lz4.ome.zarr', /'lab\/lz4\.ome\.zarr\/0\/zarr\.json'.*codec 'lz4'/],
      ['lab/int64.ome.zarr', /'lab\/int64\.ome\.zarr\/0\/\.zarray'.*dtype '<i8'/],
      ['lab/flat.ome.zarr', /'lab\/flat\.ome\.zarr\/\.zattrs'.*axes 'yx'/],
      ['lab/broken.ome.zarr', /'lab\/broken\.ome\.zarr\/zarr\.json'.*not JSON/],
    ];
    for (const [reference, detail] of cases) {
      const { status, body } = await publish('unreadable', reference);
      expect(status, reference).toBe(400);
      expect(body.code, reference).toBe('SPC_ERR_REMOTE_UNREADABLE');
      expect(body.detail, reference).toMatch(detail);
    }
  });

  it('malformed publish fields are a 400 naming the field', async () => {
    for (const [payload, field] of [
      [{ remote: 'lab/cells.ome.zarr', level: -1 }, 'level'],
      [{ remote: 'lab/cells.ome.zarr', level: 3 }, 'level'],
      [{ remote: 'lab/cells.ome.zarr', channel: 0 }, 'channel'],
      [{ remote: 'lab/cells.ome.zarr', role: 'mask' }, 'role'],
      [{ remote: 42 }, 'remote'],
      [{ remote: 'lab/cells.ome.zarr', colour: 'red' }, 'colour'],
    ] as const) {
      const res = await host.app.inject({ method: 'PUT', url: '/api/specimens/fields', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toContain(`'${field}'`);
    }
  });
});
