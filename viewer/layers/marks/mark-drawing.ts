/**
 * @module mark-drawing
 * The room's marks in the stage: a round marker for a point (and at each end of a ruler), a
 * line for a ruler or a polyline with its length beside it, a wire box, an ellipsoid's centre;
 * a label, when a mark has one, next to it. They hang from the content root, so they move with
 * the specimen (in VR too), and a mark that names a layer is drawn through that layer's affine
 * (its points are in the layer's frame), followed when the affine changes. Markers and labels
 * keep a fixed size on screen, a few CSS pixels whatever the data's scale, the camera's distance
 * or the window's height (screen-size.ts), and are drawn over everything, so a mark inside a
 * volume shows; in VR, where the content root is scaled to stand on the table, they undo its
 * scale so they keep that size whatever the specimen's.
 * The canvas says how many marks it draws (`data-marks`, once the room's list was read).
 */
import * as THREE from 'three';
import type { Annotation, Vec3 } from '../../../core/wire/scene-types.ts';
import type { Stage } from '../../stage/stage.ts';
import { colourOf } from '../../../core/wire/mark-colours.ts';
import { fitPixelSized, pixelSized, scalePerPixel } from './screen-size.ts';
import { textSprite } from './text-sprite.ts';

/** A marker's diameter, CSS pixels. */
const MARKER_PX = 12;
/** Drawn after (over) the layers. */
const ON_TOP = 1000;

/** A white disc with a dark rim, tinted by each marker's colour. */
function discTexture(): THREE.Texture {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const context = canvas.getContext('2d')!;
  context.beginPath();
  context.arc(32, 32, 27, 0, Math.PI * 2);
  context.fillStyle = '#ffffff';
  context.fill();
  context.lineWidth = 6;
  context.strokeStyle = 'rgba(0, 0, 0, 0.75)';
  context.stroke();
  return new THREE.CanvasTexture(canvas);
}

export class MarkDrawing {
  readonly #stage: Stage;
  readonly #group = new THREE.Group();
  readonly #disc = discTexture();
  #marks: Annotation[] = [];
  #texts = new Map<string, string>();
  #pending: THREE.Vector3 | null = null;
  /** The room's list has been read: the count on the canvas is the room's. */
  #known = false;
  /** The affines the marks were drawn through, to redraw when one changes. */
  #frames = '';
  /** The content root's scale and the scale per CSS pixel the sprites were sized for. */
  #rootScale = 1;
  #perPixel = 0;

  constructor(stage: Stage) {
    this.#stage = stage;
    this.#group.name = 'marks';
    stage.contentRoot.add(this.#group);
    stage.onBeforeFrame(() => {
      if (this.#framesKey() !== this.#frames) this.#draw();
      else if (stage.contentRoot.scale.x !== this.#rootScale || this.#scalePerPixel() !== this.#perPixel) this.#fitSprites();
    });
  }

  /** Draws `marks`; `textOf` says what is written beside each ('' nothing); `known` false while the room's list is unread. */
  show(marks: Annotation[], textOf: (mark: Annotation) => string, known = true): void {
    this.#marks = marks;
    this.#known = known;
    this.#texts = new Map(marks.map((mark) => [mark.id, textOf(mark)]));
    this.#draw();
  }

  /** Marks where a ruler or a box was begun (in the room's frame), or nothing. */
  pending(point: THREE.Vector3 | null): void {
    this.#pending = point?.clone() ?? null;
    this.#draw();
  }

  /** The matrix from a layer's frame to the room's (identity for the room's own frame or a layer not on the stage). */
  #matrixOf(layer: string | undefined): THREE.Matrix4 {
    return (layer !== undefined ? this.#stage.layers.get(layer)?.root.matrix : undefined) ?? new THREE.Matrix4();
  }

  #framesKey(): string {
    const layers = [...new Set(this.#marks.map((mark) => mark.layer).filter((layer) => layer !== undefined))];
    return layers.map((layer) => `${layer}:${this.#matrixOf(layer).elements.join(',')}`).join(';');
  }

  #draw(): void {
    this.#clear();
    this.#frames = this.#framesKey();
    for (const mark of this.#marks) {
      const matrix = this.#matrixOf(mark.layer);
      const points = mark.points.map((p: Vec3) => new THREE.Vector3(p[0], p[1], p[2]).applyMatrix4(matrix));
      const colour = new THREE.Color(colourOf(mark));
      const anchor = this.#shape(mark, points, matrix, colour);
      const text = this.#texts.get(mark.id) ?? '';
      if (text !== '') this.#add(textSprite(text, colourOf(mark)), anchor);
    }
    if (this.#pending) this.#add(this.#marker(new THREE.Color('#ffffff')), this.#pending);
    this.#fitSprites();
    if (this.#known) this.#stage.canvas.dataset.marks = String(this.#marks.length);
    else delete this.#stage.canvas.dataset.marks;
    this.#stage.invalidate();
  }

  /** Draws a mark's shape; answers where its text goes. */
  #shape(mark: Annotation, points: THREE.Vector3[], matrix: THREE.Matrix4, colour: THREE.Color): THREE.Vector3 {
    switch (mark.kind) {
      case 'line':
      case 'polyline': {
        this.#add(new THREE.Line(new THREE.BufferGeometry().setFromPoints(points), this.#lineMaterial(colour)));
        for (const end of [points[0]!, points.at(-1)!]) this.#add(this.#marker(colour), end);
        return points[0]!.clone().lerp(points.at(-1)!, 0.5);
      }
      case 'box': {
        const [a, b] = [mark.points[0]!, mark.points[1]!];
        const corner = (i: number): THREE.Vector3 =>
          new THREE.Vector3(i & 1 ? b[0] : a[0], i & 2 ? b[1] : a[1], i & 4 ? b[2] : a[2]).applyMatrix4(matrix);
        // The 12 edges join corners that differ on one axis.
        const edges: THREE.Vector3[] = [];
        for (let i = 0; i < 8; i++) for (const bit of [1, 2, 4]) if (!(i & bit)) edges.push(corner(i), corner(i | bit));
        this.#add(new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(edges), this.#lineMaterial(colour)));
        return corner(0).lerp(corner(7), 0.5);
      }
      case 'point':
      case 'ellipsoid':
        this.#add(this.#marker(colour), points[0]!);
        return points[0]!;
    }
  }

  /** A sprite's scale per CSS pixel now: the canvas's height and the camera's field of view set it on the page. */
  #scalePerPixel(): number {
    const stage = this.#stage;
    return scalePerPixel(stage.view.camera, stage.canvas.clientHeight, stage.renderer.xr.isPresenting);
  }

  /** Sizes the markers and texts in CSS pixels, against the content root's scale (1 on the page; the table's in VR). */
  #fitSprites(): void {
    this.#rootScale = this.#stage.contentRoot.scale.x;
    this.#perPixel = this.#scalePerPixel();
    for (const object of this.#group.children) {
      if ((object as THREE.Sprite).isSprite) fitPixelSized(object as THREE.Sprite, this.#perPixel, this.#rootScale);
    }
    this.#stage.invalidate();
  }

  #marker(colour: THREE.Color): THREE.Sprite {
    const material = new THREE.SpriteMaterial({
      map: this.#disc,
      color: colour,
      depthTest: false,
      depthWrite: false,
      sizeAttenuation: false,
    });
    return pixelSized(new THREE.Sprite(material), MARKER_PX);
  }

  #lineMaterial(colour: THREE.Color): THREE.LineBasicMaterial {
    return new THREE.LineBasicMaterial({ color: colour, depthTest: false, transparent: true });
  }

  #add(object: THREE.Object3D, at?: THREE.Vector3): void {
    object.renderOrder = Math.max(object.renderOrder, ON_TOP);
    if (at) object.position.copy(at);
    this.#group.add(object);
  }

  #clear(): void {
    for (const object of [...this.#group.children]) {
      this.#group.remove(object);
      const drawn = object as THREE.Mesh;
      // Sprites share one geometry of three.js's own.
      if (!(object as THREE.Sprite).isSprite) drawn.geometry.dispose();
      const material = drawn.material as THREE.Material & { map?: THREE.Texture | null };
      // The disc is shared by every marker; a text's texture is its own.
      if (material.map && material.map !== this.#disc) material.map.dispose();
      material.dispose();
    }
  }
}
