/**
 * @module specimen-input
 * The typed way to give an input parameter a default in plugin source.
 */
import type { AnyInput } from './input-types.ts';

/**
 * A default for an input parameter: the specimen `id` (with its own `params`), resolved by the
 * host like any request's input. The build reads the call and writes
 * `{"specimen": id, "params": {...}}` as the schema `default`, so `{}` params work.
 *
 * The host always passes the resolved input, so the value returned here is never what the
 * function sees; it only lets the default type-check, since a reference is not itself a mesh
 * or a volume. Writing the reference as an object literal (`= { specimen: 'phantom' }`) builds
 * the same schema but does not type-check.
 *
 * @param id A specimen id (arguments must be literals: the build reads them).
 * @param params The specimen's parameters, an object literal of literal values.
 * @example
 * export function isosurface(volume: VolumeInput = specimenInput('ct-head-phantom'), level = 0.5): MeshResult { ... }
 */
export function specimenInput<T extends AnyInput>(id: string, params?: Record<string, unknown>): T {
  return (params === undefined ? { specimen: id } : { specimen: id, params }) as unknown as T;
}
