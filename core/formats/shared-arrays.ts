/**
 * @module shared-arrays
 * Typed arrays in shared memory for parsed files: a parsed input crosses into worker threads
 * by reference, as computed results do (see results/normalize-result.ts).
 */
export function sharedFloat32(length: number): Float32Array {
  return new Float32Array(new SharedArrayBuffer(length * 4));
}

export function sharedUint32(length: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(length * 4));
}

/** A shared copy of a growable list of numbers. */
export function toSharedFloat32(values: ArrayLike<number>): Float32Array {
  const out = sharedFloat32(values.length);
  out.set(values);
  return out;
}

export function toSharedUint32(values: ArrayLike<number>): Uint32Array {
  const out = sharedUint32(values.length);
  out.set(values);
  return out;
}
