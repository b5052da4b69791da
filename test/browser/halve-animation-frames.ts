/**
 * @module halve-animation-frames
 * Test helper: a script for an emulated headset's page, run before the page's own, that halves
 * the rate of its animation frames.
 */

/**
 * Gives the page's animation frame callbacks every other frame of the browser's. IWER runs the
 * emulated headset's session on them, and the session draws both eyes every frame for as long
 * as it lasts, in software here; what a test checks in VR waits on states and frame counts,
 * never on a rate, so 30 frames a second show the same as 60 for half the drawing.
 */
export function halveAnimationFrames(): void {
  const [request, cancel] = [window.requestAnimationFrame.bind(window), window.cancelAnimationFrame.bind(window)];
  const pending = new Map<number, number>();
  let last = 0;
  window.requestAnimationFrame = (callback) => {
    const id = ++last;
    const second = (time: number): void => {
      pending.delete(id);
      callback(time);
    };
    pending.set(id, request(() => pending.set(id, request(second))));
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    if (pending.has(id)) cancel(pending.get(id)!);
    pending.delete(id);
  };
}
