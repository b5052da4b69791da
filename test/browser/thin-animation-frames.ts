/**
 * @module thin-animation-frames
 * Test helper: a script for an emulated headset's page, run before the page's own, that gives
 * its animation frame callbacks one frame in every few of the browser's.
 */

/**
 * How many of the browser's frames pass for one the page's callbacks see: 60 a second become
 * 15. IWER runs the emulated headset's session on them, and the session draws both eyes every
 * frame for as long as it lasts, in software here. What a test checks in VR waits on states and
 * frame counts, never on a rate, so 15 frames a second show the same as 60 for a quarter of the
 * drawing. A session's frames cost for as long as it lasts, so the more a loaded machine
 * stretches a test, the more they cost (vr-time.test.ts, a page in VR beside a desktop page, at
 * like load and wall time: Chromium's CPU fell from 31 to 27 s against every other frame; one
 * in eight gave 25 s, within the noise of one in four).
 */
export const FRAME_EVERY = 4;

/** Gives the page's animation frame callbacks one frame in every `every` of the browser's. */
export function thinAnimationFrames(every: number): void {
  const [request, cancel] = [window.requestAnimationFrame.bind(window), window.cancelAnimationFrame.bind(window)];
  /** The browser's frame each pending callback now waits for, by the id the page was given. */
  const pending = new Map<number, number>();
  let last = 0;
  window.requestAnimationFrame = (callback) => {
    const id = ++last;
    const wait = (left: number): void => {
      pending.set(
        id,
        request((time) => {
          if (left > 1) return wait(left - 1);
          pending.delete(id);
          callback(time);
        }),
      );
    };
    wait(every);
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    if (pending.has(id)) cancel(pending.get(id)!);
    pending.delete(id);
  };
}
