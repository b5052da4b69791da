/**
 * The Python client with a user's token, against a real host process serving a data dir with
 * users: `Client(url, token=...)` is that user (its marks are authored by it, whatever it says,
 * and it may close a room and read it), an unknown token raises `VitrineError` 401, and a client
 * without a token cannot read the room the user closed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';
import { peopleDir } from '../people/people-helpers.ts';

const run = promisify(execFile);
let host: RunningHost;
let token: string;

beforeAll(async () => {
  const people = await peopleDir(['ada']);
  token = people.tokens.ada!;
  host = await spawnHost(['--port', '0', '--data-dir', people.dir, '--specimens', 'none', '--plugins', 'none', '--no-viewer']);
});

afterAll(() => host?.stop());

const SCRIPT = `
import json, os, sys
from vitrine.client import Client
from vitrine._http import VitrineError
url, token = os.environ['VITRINE_URL'], os.environ['VITRINE_TOKEN']
ada = Client(url, token=token)
mark = ada.room('py-token').annotate('point', [[1, 2, 3]], author='mallory')
assert ada.room('py-token').set_access(public='none')['owner'] == 'ada'
seen = len(ada.room('py-token').annotations())
codes = []
for client in (Client(url, token='vt_unknown'), Client(url)):
    try:
        client.room('py-token').annotations()
        codes.append(None)
    except VitrineError as error:
        codes.append([error.status, error.code])
print(json.dumps({'author': mark['author'], 'seen': seen, 'codes': codes}))
`;

describe('the Python client with a token', () => {
  it('is its user; an unknown token is a 401; without one a closed room is not there', async () => {
    const { stdout } = await run(TEST_PYTHON, ['-c', SCRIPT], {
      env: { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, VITRINE_URL: host.url, VITRINE_TOKEN: token },
    });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
      author: 'ada',
      seen: 1,
      codes: [[401, 'SPC_ERR_TOKEN_UNKNOWN'], [404, 'SPC_ERR_ROOM_NOT_VISIBLE']],
    });
  });
});
