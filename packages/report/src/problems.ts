/**
 * What could not be reported: a profile file that is corrupt, truncated, empty or foreign; a file whose
 * source changed since it was instrumented; a function numbered by another version of pathprof. Each is
 * printed on stderr and makes the command exit with code 2; the rest is reported.
 */
export class Problems {
  readonly messages: string[] = [];
  /** What the user should know but is not a problem (leftover profiles of other runs): printed, exit code kept. */
  readonly notes: string[] = [];

  note(message: string): void {
    this.notes.push(message);
  }

  add(message: string): void {
    this.messages.push(message);
  }

  get any(): boolean {
    return this.messages.length > 0;
  }
}
