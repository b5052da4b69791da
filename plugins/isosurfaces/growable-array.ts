/**
 * @module growable-array
 * Append-only typed arrays that double their capacity, for meshes whose size is only known
 * once extraction ends.
 */

/** A growable Float32Array. */
export class GrowableFloat32 {
  #data = new Float32Array(1024);
  length = 0;

  /** Appends three values (one x,y,z triple). */
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.#data.length) this.#grow();
    this.#data[this.length++] = a;
    this.#data[this.length++] = b;
    this.#data[this.length++] = c;
  }

  /** The backing array (valid up to `length`; replaced when it grows). */
  peek(): Float32Array {
    return this.#data;
  }

  /** A right-sized copy of the contents. */
  toArray(): Float32Array {
    return this.#data.slice(0, this.length);
  }

  #grow(): void {
    const next = new Float32Array(this.#data.length * 2);
    next.set(this.#data);
    this.#data = next;
  }
}

/** A growable Uint32Array. */
export class GrowableUint32 {
  #data = new Uint32Array(1024);
  length = 0;

  /** Appends three values (one triangle). */
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.#data.length) this.#grow();
    this.#data[this.length++] = a;
    this.#data[this.length++] = b;
    this.#data[this.length++] = c;
  }

  /** A right-sized copy of the contents. */
  toArray(): Uint32Array {
    return this.#data.slice(0, this.length);
  }

  #grow(): void {
    const next = new Uint32Array(this.#data.length * 2);
    next.set(this.#data);
    this.#data = next;
  }
}
