/** @module media-type The envelope's default media type (overridable with `--envelope-media-type`). */
export const ENVELOPE_MEDIA_TYPE = 'application/x-service-envelope-v1';
