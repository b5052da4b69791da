import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedProfilesDir, XR_PROFILE_IDS } from '../../core/assets/xr-profiles.ts';
import { createTestApp } from '../helpers/create-test-app.ts';

describe('GET /viewer/xr-profiles/', () => {
  it('lists only the shipped controller and hand profiles, and serves their files', async () => {
    const app = await createTestApp({ viewer: true });
    const list = await app.inject('/viewer/xr-profiles/profilesList.json');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual(Object.fromEntries(XR_PROFILE_IDS.map((id) => [id, { path: `${id}/profile.json` }])));
    for (const id of XR_PROFILE_IDS) {
      const profile = await app.inject(`/viewer/xr-profiles/${id}/profile.json`);
      expect(profile.statusCode, id).toBe(200);
      expect(profile.json()).toMatchObject({ profileId: id });
    }
    const glb = await app.inject('/viewer/xr-profiles/meta-quest-touch-plus/right.glb');
    expect(glb.statusCode).toBe(200);
    expect(glb.headers['content-type']).toBe('model/gltf-binary');
    expect(glb.rawPayload.equals(readFileSync(path.join(installedProfilesDir(), 'meta-quest-touch-plus', 'right.glb')))).toBe(true);
    const hand = await app.inject('/viewer/xr-profiles/generic-hand/left.glb');
    expect(hand.statusCode).toBe(200);
  });

  it('answers 404 in the JSON error shape for profiles not shipped and for paths out of the folder', async () => {
    const app = await createTestApp({ viewer: true });
    for (const url of [
      '/viewer/xr-profiles/htc-vive/profile.json',
      '/viewer/xr-profiles/generic-hand/..%2F..%2Fpackage.json',
      '/viewer/xr-profiles/generic-hand/nothing.glb',
      '/viewer/xr-profiles/generic-hand/left.txt',
    ]) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ status_code: 404, code: 'SPC_ERR_ROUTE_NOT_FOUND' });
    }
  });
});
