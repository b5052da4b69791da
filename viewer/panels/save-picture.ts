/**
 * @module save-picture
 * "Save picture": what the stage shows now, downloaded as a PNG at the canvas's own size. The
 * stage's renderer keeps its last frame (preserveDrawingBuffer, stage.ts), and it only draws
 * on a change, so reading the canvas between frames gives exactly what is on screen, with no
 * second render that could differ from it. The file is named after what is shown and the room
 * it is in (`brain-mri-lab.png`), so pictures from several rooms do not overwrite each other.
 */

/** Characters a file name keeps; anything else becomes a dash. */
const UNSAFE = /[^A-Za-z0-9._-]+/g;

/** The file name of a picture of `subject` (a specimen or function id; null when none) in `room`. */
export function pictureName(subject: string | null, room: string): string {
  const parts = [subject ?? 'stage', room].map((part) => part.replace(UNSAFE, '-').replace(/^[-.]+|[-.]+$/g, '')).filter(Boolean);
  return `${parts.join('-').slice(0, 120) || 'stage'}.png`;
}

/** Downloads what `canvas` shows as the PNG file `name`; rejects with why when there is nothing to read (no WebGL). */
export async function savePicture(canvas: HTMLCanvasElement | null, name: string): Promise<void> {
  if (!canvas) throw new Error('this page cannot draw (no WebGL), so there is no picture');
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the stage could not be read as a picture');
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the bytes once the click is handled; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
