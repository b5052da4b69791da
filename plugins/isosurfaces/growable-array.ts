/**
 * @module growable-array
 * Append-only typed arrays that double their capacity, for meshes whose size is only known
 * once extraction ends.
 */

type Typed = Float32Array | Uint32Array;

/** A growable typed array of the kind `make` creates. */
export class GrowableArray<T extends Typed> {
  #make: (length: number) => T;
  #data: T;
  length = 0;

  constructor(make: (length: number) => T) {
    this.#make = make;
    this.#data = make(1024);
  }

  /** Appends three values (an x,y,z triple or a triangle's corners). */
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.#data.length) this.#grow();
    this.#data[this.length++] = a;
    this.#data[this.length++] = b;
    this.#data[this.length++] = c;
  }

  /** The backing array (valid up to `length`; replaced when it grows). */
  peek(): T {
    return this.#data;
  }

  /** A right-sized copy of the contents. */
  toArray(): T {
    return this.#data.slice(0, this.length) as T;
  }

  #grow(): void {
    const next = this.#make(this.#data.length * 2);
    next.set(this.#data);
    this.#data = next;
  }
}

/** A growable Float32Array (vertex positions). */
export const growableFloat32 = (): GrowableArray<Float32Array> => new GrowableArray((n) => new Float32Array(n));

/** A growable Uint32Array (triangle indices). */
export const growableUint32 = (): GrowableArray<Uint32Array> => new GrowableArray((n) => new Uint32Array(n));
