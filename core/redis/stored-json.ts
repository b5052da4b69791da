/**
 * @module stored-json
 * A value or message read from Redis as JSON: what is not JSON (written by hand, or cut short)
 * reads as null, the same as a value that is not there; each reader checks what it takes.
 */
export function storedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
