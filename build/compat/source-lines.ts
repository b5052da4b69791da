/**
 * @module source-lines
 * Where a parameter is written. A manifest records each function's line but not its
 * parameters'; the parameter is found in the source text from the function's line on, as its
 * name followed by what follows a parameter name in a TypeScript or Python signature (`:`,
 * `?`, `=`, `,`, `)`). The signature comes before the body, so the first such place is it;
 * when none is found within a signature's reach the function's own line is the answer.
 * A TypeScript bound is written in the doc comment above the function (`@range radius 0 1`),
 * so a changed bound points at its tag when there is one.
 */

/** How many lines after the function's a signature may still run. */
const SIGNATURE_REACH = 80;

function escape(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The 1-based line of parameter `name` of the function declared at `functionLine` in `text`. */
export function parameterLine(text: string, functionLine: number, name: string): number {
  const lines = text.split(/\r?\n/);
  const pattern = new RegExp(`(^|[^\\w$.'"])${escape(name)}\\s*[?:=,)]`);
  const last = Math.min(lines.length, functionLine - 1 + SIGNATURE_REACH);
  for (let index = Math.max(0, functionLine - 1); index < last; index++) {
    if (pattern.test(lines[index]!)) return index + 1;
  }
  return functionLine;
}

const BOUND_TAG = /@(range|minimum|maximum|minItems|maxItems)\s+/;

/** The line of a bound tag on parameter `name` in the doc comment right above `functionLine`, or null. */
export function boundTagLine(text: string, functionLine: number, name: string): number | null {
  const lines = text.split(/\r?\n/);
  const tag = new RegExp(`${BOUND_TAG.source}${escape(name)}(\\s|$)`);
  for (let index = functionLine - 2; index >= 0; index--) {
    const line = lines[index]!.trim();
    if (!line.startsWith('*') && !line.startsWith('/**')) return null;
    if (tag.test(line)) return index + 1;
    if (line.startsWith('/**')) return null;
  }
  return null;
}
