/**
 * @module growable
 * A typed array that doubles when full: the vertices and triangles a cut makes, of a count
 * not known beforehand, held without an object per element.
 */

type Typed = Float64Array | Float32Array | Uint32Array;

export class Growable<T extends Typed> {
  array: T;
  length: number;

  /** `array` with its first `length` elements in use. */
  constructor(array: T, length = 0) {
    this.array = array;
    this.length = length;
  }

  /** Room for `more` elements past the current length. */
  reserve(more: number): T {
    const need = this.length + more;
    if (need > this.array.length) {
      const bigger = new (this.array.constructor as new (n: number) => T)(Math.max(need, this.array.length * 2));
      bigger.set(this.array.subarray(0, this.length) as never);
      this.array = bigger;
    }
    return this.array;
  }

  push3(a: number, b: number, c: number): void {
    const array = this.reserve(3);
    array[this.length] = a;
    array[this.length + 1] = b;
    array[this.length + 2] = c;
    this.length += 3;
  }

  /** The elements so far (a view). */
  view(): T {
    return this.array.subarray(0, this.length) as T;
  }
}
