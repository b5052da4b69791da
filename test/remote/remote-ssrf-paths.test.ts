/**
 * The same remote rules wherever a remote can be named, one table: publishing (`PUT`, which the
 * notebook client's `publish_remote` and `room.add_remote` use), the MCP tool `publish_remote`,
 * and a snapshot's verify asking again the keys a layer kept (a session file from elsewhere may
 * name any remote). Each refuses a reference outside the host's remotes with 400
 * SPC_ERR_REMOTE_NOT_ALLOWED, and nothing is read from any remote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostError } from '../../core/errors.ts';
import { RemoteData } from '../../core/remote/remote-data.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { connectMcp, type ToolAnswer } from '../helpers/mcp-client.ts';
import { startRemoteServer, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: `${remote.url}images` } }));

interface Refusal {
  status: number;
  code: string | undefined;
}

/** Each place a remote is named: how it answers `reference`. */
const PATHS: Record<string, (reference: string) => Promise<Refusal>> = {
  'publish (PUT; the notebook client)': async (reference) => {
    const res = await host.app.inject({ method: 'PUT', url: '/api/specimens/ssrf', payload: { remote: reference } });
    return { status: res.statusCode, code: (res.json() as { code?: string }).code };
  },
  'MCP publish_remote': async (reference) => {
    const client = await connectMcp(host.url);
    try {
      const answer = (await client.callTool({ name: 'publish_remote', arguments: { id: 'ssrf', remote: reference } })) as ToolAnswer;
      const text = answer.content[0]!.text ?? '';
      return { status: Number(/^(\d{3}):/.exec(text)?.[1]), code: /not allowed/.test(text) ? 'SPC_ERR_REMOTE_NOT_ALLOWED' : text };
    } finally {
      await client.close();
    }
  },
  'snapshot verify (the keys a layer kept)': async (reference) => {
    const data = new RemoteData({
      remotes: { lab: `${remote.url}images` },
      remoteTimeoutSeconds: 5,
      maxRemoteBytes: 1 << 20,
      s3Endpoint: null,
      budget: { hold: () => {}, release: () => {} },
      run: () => Promise.reject(new Error('nothing is read')),
    });
    const slash = reference.indexOf('/');
    // A kept key is NAME plus a path inside it; a URL stands as a name no remote has.
    const named = slash > 0 && !reference.includes('://');
    const origin = named ? { name: reference.slice(0, slash), key: reference.slice(slash + 1) } : { name: reference, key: 'zarr.json' };
    try {
      await data.changed({ name: origin.name, path: '', versions: { [origin.key]: '"v"' } });
      return { status: 200, code: undefined };
    } catch (error) {
      if (!isHostError(error)) throw error;
      return { status: error.statusCode, code: error.code };
    }
  },
};

const OUTSIDE = [
  'nosuch/x.ome.zarr',
  'lab/../private/x.ome.zarr',
  'lab/%2e%2e/private/x.ome.zarr',
  'lab/a%2f..%2fb',
  'http://10.0.0.1/x.ome.zarr',
  's3://other-bucket/x.ome.zarr',
];

describe('every place a remote is named holds to the remotes', () => {
  for (const [place, answer] of Object.entries(PATHS)) {
    it(`${place}: 400 SPC_ERR_REMOTE_NOT_ALLOWED, nothing read`, async () => {
      remote.reset();
      for (const reference of OUTSIDE) {
        expect(await answer(reference), `${place}: ${reference}`).toEqual({ status: 400, code: 'SPC_ERR_REMOTE_NOT_ALLOWED' });
      }
      expect(remote.sent.requests).toBe(0);
    });
  }
});
