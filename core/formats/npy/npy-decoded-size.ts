/**
 * @module npy-decoded-size
 * A `.npy` file's decoded size: the samples its header declares, which must be exactly the
 * bytes that follow the header (the samples are the file's own bytes, so a header declaring
 * more than follows is a malformed file, not a large one).
 */
import type { DecodedSize } from '../decoded-size.ts';
import { fail } from '../format-error.ts';
import { elementCount, npyElementType, npyOrFail, parseNpyHeader } from './npy-header.ts';

export function npyDecodedSize(bytes: Buffer): DecodedSize {
  const header = npyOrFail(() => parseNpyHeader(bytes));
  const itemSize = npyOrFail(() => npyElementType(header.descr)).itemSize;
  const declared = elementCount(header.shape) * itemSize;
  // The samples are the file's own bytes: a header declaring more than follows it is a
  // malformed file, not a large one.
  const held = bytes.length - header.dataOffset;
  if (declared !== held) fail(`the header declares shape (${header.shape.join(', ')}): ${declared} bytes of data, but the file holds ${held}`);
  return { bytes: declared, what: `${elementCount(header.shape)} samples of ${itemSize} bytes` };
}
