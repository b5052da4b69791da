/**
 * @module scene-depth
 * The depth of the opaque things on the stage, for the ray marcher. A mesh inside a ray-marched
 * volume must be hidden where the volume is opaque before it, and seen where the volume is
 * clear: so, before a frame that has both, the opaque contents are drawn alone into a render
 * target with a depth texture, and each ray-marched volume reads that depth and ends its rays
 * there (volume-raymarch.ts). A frame without a ray-marched volume, or without anything
 * opaque, costs nothing more. In VR the target has the size of the headset's framebuffer and
 * both eyes are drawn into it as into that framebuffer, so a fragment's own pixel finds its
 * depth in either.
 */
import * as THREE from 'three';

/** The uniforms a ray marcher shares with this pass (by reference: one object for every volume). */
export interface SceneDepthUniforms {
  sceneDepth: { value: THREE.DepthTexture | null };
  /** The target's size in pixels (gl_FragCoord / size is the texture coordinate). */
  depthSize: { value: THREE.Vector2 };
  useDepth: { value: boolean };
}

/** Marks an object as ray marched: left out of the depth pass, and the reason for one. */
export function markRaymarched(object: THREE.Object3D): void {
  object.userData.raymarched = true;
}

function isOpaque(node: THREE.Object3D): boolean {
  if ((node as THREE.LineSegments).isLine || (node as THREE.Points).isPoints) return false;
  const material = (node as THREE.Mesh).material as THREE.Material | THREE.Material[] | undefined;
  if (!(node as THREE.Mesh).isMesh || !material) return false;
  return (Array.isArray(material) ? material : [material]).every((m) => !m.transparent && m.depthWrite && m.visible);
}

export class SceneDepth {
  readonly uniforms: SceneDepthUniforms = {
    sceneDepth: { value: null },
    depthSize: { value: new THREE.Vector2(1, 1) },
    useDepth: { value: false },
  };
  #target: THREE.WebGLRenderTarget | null = null;
  readonly #hidden: THREE.Object3D[] = [];

  /**
   * Draws the opaque contents under `contentRoot` into the depth target when a visible
   * ray-marched volume needs it, and tells the volumes whether to read it.
   */
  render(renderer: THREE.WebGLRenderer, scene: THREE.Scene, camera: THREE.Camera, contentRoot: THREE.Object3D): void {
    let marched = false;
    let opaque = false;
    contentRoot.traverseVisible((node) => {
      if (node.userData.raymarched) marched = true;
      else if (isOpaque(node)) opaque = true;
    });
    this.uniforms.useDepth.value = marched && opaque;
    if (!this.uniforms.useDepth.value) return;
    const target = this.#targetFor(renderer);
    // Only the opaque contents: everything else in the scene (grid, panel, hands) and every
    // transparent or ray-marched thing is hidden for this pass.
    for (const child of scene.children) if (child !== contentRoot && child.visible && !(child as THREE.Light).isLight) this.#hide(child);
    contentRoot.traverseVisible((node) => {
      const drawable = (node as THREE.Mesh).isMesh || (node as THREE.Line).isLine || (node as THREE.Points).isPoints;
      if (node.userData.raymarched || (drawable && !isOpaque(node))) this.#hide(node);
    });
    const background = scene.background;
    scene.background = null;
    const previous = renderer.getRenderTarget();
    try {
      renderer.setRenderTarget(target);
      renderer.clear();
      renderer.render(scene, camera);
    } finally {
      renderer.setRenderTarget(previous);
      scene.background = background;
      for (const node of this.#hidden) node.visible = true;
      this.#hidden.length = 0;
    }
  }

  #hide(node: THREE.Object3D): void {
    node.visible = false;
    this.#hidden.push(node);
  }

  /** The target, at the size of what the frame is drawn into (the canvas, or the headset's framebuffer). */
  #targetFor(renderer: THREE.WebGLRenderer): THREE.WebGLRenderTarget {
    const size = new THREE.Vector2();
    const xrTarget = renderer.xr.isPresenting ? renderer.getRenderTarget() : null;
    if (xrTarget) size.set(xrTarget.width, xrTarget.height);
    else renderer.getDrawingBufferSize(size);
    if (!this.#target || this.#target.width !== size.x || this.#target.height !== size.y) {
      this.#target?.dispose();
      const depthTexture = new THREE.DepthTexture(size.x, size.y);
      depthTexture.type = THREE.UnsignedIntType;
      this.#target = new THREE.WebGLRenderTarget(size.x, size.y, { depthTexture, depthBuffer: true });
      this.uniforms.sceneDepth.value = depthTexture;
      this.uniforms.depthSize.value.copy(size);
    }
    return this.#target;
  }
}
