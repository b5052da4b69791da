/**
 * @module first-picture
 * The page's first picture, as something the rest of the page can wait for. Whatever loads a
 * thing the stage is about to show holds it while it loads (the page's own subject until it is
 * on the stage, a room's layer until its first content is, a surface drawn from levels of detail
 * until every segment has its coarsest level drawn); the picture counts as drawn the first time
 * the last hold is let go, or at once when the page learns that nothing is coming (an empty
 * room, a page with no subject). What the page wants but need not show first (the catalog's
 * thumbnails) waits for it, so a slow link carries the picture's bytes before theirs.
 */
export class FirstPicture {
  #holds = 0;
  #settled = false;
  #resolve: () => void = () => {};
  /** Resolves once the first picture is drawn (or nothing is coming). */
  readonly drawn = new Promise<void>((resolve) => (this.#resolve = resolve));

  /** Held while something on its way to the stage loads; the returned function lets go (once; later calls do nothing). */
  hold(): () => void {
    if (this.#settled) return () => {};
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds === 0) this.#settle();
    };
  }

  /** Whoever says so has nothing on its way (an empty room): drawn now unless something else holds it. */
  nothingComing(): void {
    if (this.#holds === 0) this.#settle();
  }

  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve();
  }
}
