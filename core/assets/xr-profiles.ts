/**
 * @module xr-profiles
 * The controller and hand models the VR viewer shows, from `@webxr-input-profiles/assets`.
 * That package is 98 MB; the host ships only the profiles listed here (generic controllers and
 * hands, and Meta's Quest controllers), copied into the compiled package at compile time
 * (build/tools/compile/compile.ts) and read from there, or from `node_modules` when the host runs
 * from its TypeScript sources. Nothing is fetched from the internet at run time.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { PREBUILT_ASSETS_DIR } from '../loading/package-layout.ts';

/** Profile ids shipped, in the order `fetchProfile` may fall back on them. */
export const XR_PROFILE_IDS = [
  'generic-trigger-squeeze-thumbstick',
  'meta-quest-touch-plus',
  'meta-quest-touch-pro',
  'oculus-touch-v3',
  'oculus-touch-v2',
  'generic-hand',
] as const;

/** The profiles folder of the installed `@webxr-input-profiles/assets` (a development checkout). */
export function installedProfilesDir(): string {
  const manifest = createRequire(import.meta.url).resolve('@webxr-input-profiles/assets/package.json');
  return path.join(path.dirname(manifest), 'dist', 'profiles');
}

/** The folder the host serves profiles from. */
export function xrProfilesDir(): string {
  return PREBUILT_ASSETS_DIR ? path.join(PREBUILT_ASSETS_DIR, 'xr-profiles') : installedProfilesDir();
}

/** `profilesList.json` as the motion-controllers library reads it, naming only the shipped profiles. */
export function profilesList(): Record<string, { path: string }> {
  return Object.fromEntries(XR_PROFILE_IDS.map((id) => [id, { path: `${id}/profile.json` }]));
}
