/**
 * @module vitrine/testing
 * Testing plugins without a host: the package entry `vitrine/testing`.
 *
 * @example
 * import { loadPlugin } from 'vitrine/testing';
 * const plugin = await loadPlugin(new URL('../plugins/shapes', import.meta.url));
 * const run = await plugin.call('torus', { minor_radius: 0.2 });
 * // run.result: the checked, normalised result; run.progress: what the function reported
 * await plugin.call('torus', { minor_radius: -1 }); // rejects with code SPC_ERR_PARAM_INVALID
 * // Inputs: a declared or on-disk specimen, or a local file as an upload
 * await (await loadPlugin('plugins/isosurfaces')).call('isosurface', { volume: { specimen: 'ct-head-phantom' } });
 */
export { loadPlugin, PluginBuildError } from './load-plugin.ts';
export type { LoadPluginOptions } from './load-plugin.ts';
export type { TestPlugin } from './load-plugin.ts';
export type { CallOptions, FunctionRun, ProgressMessage } from './run-function.ts';
export { HostError } from '../errors.ts';
export type { StoredResult } from '../results/stored-result.ts';
export type { ManifestFunction, ManifestSpecimen } from '../registry/manifest-types.ts';
