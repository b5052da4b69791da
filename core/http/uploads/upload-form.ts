/**
 * @module upload-form
 * An upload sent as a browser form or `curl -F file=@scan.stl` (`multipart/form-data`): the
 * first file part of the form is the upload, its name taken from `?filename=` when given,
 * else from the part itself. Other fields are ignored. A form with no file part, a part with
 * no name, or a form that cannot be read is a 400 saying so.
 */
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { createHostError } from '../../errors.ts';

export interface FormUpload {
  name: string;
  stream: Readable;
}

/** How much larger than its file a form may say it is (boundaries and part headers). */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The limits given to the form reader: one file, a few small fields. */
export function formLimits(maxBytes: number): Record<string, number> {
  // One byte past the limit, so the body reader (not the form reader) refuses it, with its 413.
  return { files: 1, fileSize: maxBytes + 1, fields: 16, fieldSize: 4096, parts: 32 };
}

export async function formUpload(request: FastifyRequest, queryName: string | undefined): Promise<FormUpload> {
  let part: MultipartFile | undefined;
  try {
    part = await request.file();
  } catch (error) {
    throw createHostError('SPC_ERR_BAD_REQUEST', `the multipart form cannot be read: ${(error as Error).message}`);
  }
  if (!part) throw createHostError('SPC_ERR_BAD_REQUEST', 'the multipart form has no file part (send the file as e.g. -F file=@scan.stl)');
  const name = queryName ?? part.filename;
  if (!name || !/\S/.test(name)) throw createHostError('SPC_ERR_BAD_REQUEST', "the form's file part has no file name (give one, or ?filename=scan.stl)");
  return { name, stream: part.file };
}
