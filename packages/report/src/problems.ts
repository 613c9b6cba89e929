/**
 * What could not be reported: a profile file that is corrupt, truncated, empty or foreign; a file whose
 * source changed since it was instrumented; a function numbered by another version of pathprof. Each is
 * printed on stderr and makes the command exit with code 2; the rest is reported.
 */
export class Problems {
  readonly messages: string[] = [];
  /** What the user should know but is not a problem (leftover profiles of other runs): printed, exit code kept. */
  readonly notes: string[] = [];
  /** The keys of the files left out whole, so that `show` names the reason rather than "no file matches". */
  readonly skippedFiles = new Set<string>();

  note(message: string): void {
    this.notes.push(message);
  }

  /** A problem, once: two builds of a file skipped for one reason (its source changed) are one line. */
  add(message: string): void {
    if (!this.messages.includes(message)) this.messages.push(message);
  }

  /** A file left out whole: `key: reason; skipped`. */
  skip(key: string, reason: string): void {
    this.skippedFiles.add(key);
    this.add(`${key}: ${reason}; skipped`);
  }

  get any(): boolean {
    return this.messages.length > 0;
  }
}
