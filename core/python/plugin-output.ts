/**
 * @module plugin-output
 * A plugin process's prints (stdout and stderr) on their way to the host's log, within a cap:
 * a plugin that prints in a loop must not fill the disk or slow the host with log lines. Each
 * call (and the process's start, imports included) may log {@link MAX_BYTES_PER_CALL} bytes,
 * each line cut at {@link MAX_LINE_CHARS} characters; past the cap the rest of that call's
 * output is dropped and one line says how much.
 */

/** Bytes of output one call may put in the log. */
export const MAX_BYTES_PER_CALL = 64 * 1024;
/** Longest line logged; longer ones are cut. */
export const MAX_LINE_CHARS = 2000;

export class PluginOutput {
  #log: (line: string) => void;
  #logged = 0;
  #dropped = 0;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** A chunk of text as the process printed it. */
  write(text: string): void {
    if (this.#logged >= MAX_BYTES_PER_CALL) {
      this.#dropped += text.length;
      return;
    }
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      const line = raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}… (${raw.length - MAX_LINE_CHARS} more characters)` : raw;
      if (this.#logged >= MAX_BYTES_PER_CALL) {
        this.#dropped += raw.length + 1;
        continue;
      }
      this.#logged += line.length + 1;
      this.#log(line);
      if (this.#logged >= MAX_BYTES_PER_CALL) this.#log(`(the plugin printed ${MAX_BYTES_PER_CALL} bytes in this call: the rest of its output is dropped)`);
    }
  }

  /** A new call starts: what the last one dropped is said, and the cap starts again. */
  startCall(): void {
    this.flush();
    this.#logged = 0;
  }

  /** Says how much was dropped since the last time, if anything was. */
  flush(): void {
    if (this.#dropped === 0) return;
    this.#log(`(${this.#dropped} more characters of plugin output dropped: at most ${MAX_BYTES_PER_CALL} bytes are logged per call)`);
    this.#dropped = 0;
  }
}
