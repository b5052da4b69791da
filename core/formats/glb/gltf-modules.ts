/**
 * @module gltf-modules
 * glTF-Transform and meshoptimizer, loaded by the first GLB written or read or the first mesh
 * simplified, not when a thread starts: they are about a third of what each worker thread
 * loads (and meshoptimizer compiles WebAssembly), while most threads never touch a GLB. Each
 * loads once per thread; a failed load is tried again by the next call.
 */

import { loadOnce } from '../../loading/load-once.ts';

export type Meshopt = typeof import('meshoptimizer');

export interface GltfModules {
  core: typeof import('@gltf-transform/core');
  extensions: typeof import('@gltf-transform/extensions');
  meshopt: Meshopt;
}

/** meshoptimizer (its WebAssembly instantiated by the caller's `.ready` of the part it uses). */
export const meshoptModule = loadOnce(() => import('meshoptimizer'));

/** glTF-Transform's core and extensions, with meshoptimizer. */
export const gltfModules = loadOnce(async (): Promise<GltfModules> => {
  const [core, extensions, meshopt] = await Promise.all([import('@gltf-transform/core'), import('@gltf-transform/extensions'), meshoptModule()]);
  return { core, extensions, meshopt };
});
