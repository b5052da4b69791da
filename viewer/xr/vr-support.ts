/**
 * @module vr-support
 * Whether this browser can open an immersive VR session (`navigator.xr.isSessionSupported`),
 * and the session request itself: `local-floor` (the floor at y = 0, so "table height" means
 * something), hand tracking when the headset has it.
 */

/** True when `immersive-vr` sessions are supported; false without WebXR or on any error. */
export async function isVrSupported(): Promise<boolean> {
  try {
    return (await navigator.xr?.isSessionSupported('immersive-vr')) ?? false;
  } catch {
    return false;
  }
}

/** Asks the browser for an immersive VR session (call from a user gesture). */
export function requestVrSession(): Promise<XRSession> {
  if (!navigator.xr) return Promise.reject(new Error('this browser has no WebXR'));
  return navigator.xr.requestSession('immersive-vr', { requiredFeatures: ['local-floor'], optionalFeatures: ['hand-tracking'] });
}
