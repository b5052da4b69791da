/**
 * @module plugin-types
 * What plugin authors write against: the `Integer` marker, the injected `ProgressReporter`,
 * and the shape of a declared dynamic specimen.
 */

/**
 * Marks a parameter as an integer. It is a plain `number` to the type checker, so
 * `segments: Integer = 32` needs no cast; the build step reads the annotation and writes
 * `{"type": "integer"}` into the schema, and the host rejects non-integers with a 400.
 *
 * Slider bounds go in the function's doc comment, on `number` and `Integer` parameters only:
 * `@minimum radius 0.1`, `@maximum radius 10`, or `@range segments 3 256`. Values are literal
 * numbers; `vitrine build` writes them as `minimum`/`maximum` and rejects a default outside them.
 *
 * @example
 * /**
 *  * A square grid.
 *  * @range cells 1 512
 *  *\/
 * export function grid(cells: Integer = 16): MeshResult { ... }
 */
export type Integer = number;

/**
 * Injected by the host into a parameter of this type (it never appears in the schema).
 * Each `report(text)` call during a background job becomes one progress message that
 * clients poll. Outside a job (plain `/invoke` or `/data`) it does nothing.
 *
 * @example
 * export function slow(steps: Integer = 10, progress?: ProgressReporter): MeshResult {
 *   for (let i = 0; i < steps; i++) { progress?.report(`step ${i + 1}/${steps}`, (i + 1) / steps); ... }
 * }
 */
export interface ProgressReporter {
  /**
   * Adds one progress message.
   * @param text What is happening, shown to the user as is.
   * @param fraction Optional completion between 0 and 1.
   */
  report(text: string, fraction?: number): void;
}

/**
 * A dynamic specimen a plugin declares: a function of the plugin shown in the catalog with
 * no file on disk. Export an array of these as `specimens` from the plugin's `index.ts`.
 * It is read from the source at build time: use an array literal whose values are constant
 * strings (literals, templates, `+` concatenations, `const` bindings).
 *
 * @example
 * export const specimens: SpecimenDeclaration[] = [{
 *   id: 'torus', function: 'torus', display_name: 'Torus',
 *   description: 'A ring torus', tags: ['mesh', 'parametric'],
 *   thumbnail: './thumbnails/torus.png', story: 'The surface of a doughnut...',
 * }];
 */
export interface SpecimenDeclaration {
  /** Catalog id, unique within the host. Letters, digits, `-`, `_` and `.`. */
  id: string;
  /** The exported function of this plugin that produces the specimen. */
  function: string;
  display_name: string;
  description?: string;
  tags?: string[];
  /** A path relative to the plugin folder (copied into the bundle), or a `data:` URI. */
  thumbnail?: string;
  /** Longer text a client may show beside the specimen. */
  story?: string;
  /** `#rrggbb`: the colour the web viewer draws the mesh in (else it takes the thumbnail's colour). */
  color?: string;
}
