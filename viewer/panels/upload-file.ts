/**
 * @module upload-file
 * Sends a dropped or chosen file to `POST /api/uploads` (the file as the body) and returns
 * the upload's id and type, or the host's readable refusal.
 */

export interface UploadAnswer {
  upload_id: string;
  type: string;
  bytes: number;
  expires_in: number;
}

/** Uploads `file`; rejects with an Error whose message is the host's detail. */
export async function uploadFile(file: File): Promise<UploadAnswer> {
  const res = await fetch(`/api/uploads?filename=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: file,
  });
  const body = (await res.json().catch(() => ({}))) as Partial<UploadAnswer> & { detail?: string };
  if (!res.ok || typeof body.upload_id !== 'string') throw new Error(body.detail ?? `the upload failed (${res.status})`);
  return body as UploadAnswer;
}
