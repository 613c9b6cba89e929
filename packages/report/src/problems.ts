/** How many files skipped for one reason are named before the rest are counted. */
const SKIPS_LISTED = 3;

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
  /** The files left out whole, by reason, and the reason of each such message. */
  private readonly skippedFor = new Map<string, string[]>();
  private readonly reasonOf = new Map<string, string>();

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
    const message = `${key}: ${reason}; skipped`;
    if (!this.reasonOf.has(message)) {
      this.reasonOf.set(message, reason);
      this.skippedFor.set(reason, [...(this.skippedFor.get(reason) ?? []), key]);
    }
    this.add(message);
  }

  /**
   * The messages as a terminal shows them: more than `SKIPS_LISTED` files skipped for one reason are one line,
   * in the place of the first (a project whose tests ran with ts-jest's `sourceMap: false` had all 133 files
   * skipped for the same reason, one line each).
   */
  printed(): string[] {
    const lines: string[] = [];
    const grouped = new Set<string>();
    for (const message of this.messages) {
      const reason = this.reasonOf.get(message);
      const keys = reason === undefined ? [] : this.skippedFor.get(reason)!;
      if (reason === undefined || keys.length <= SKIPS_LISTED) lines.push(message);
      else if (!grouped.has(reason)) {
        grouped.add(reason);
        const listed = keys.slice(0, SKIPS_LISTED).join(', ');
        lines.push(
          `${keys.length} files skipped (${reason}): ${listed} and ${keys.length - SKIPS_LISTED} more`,
        );
      }
    }
    return lines;
  }

  get any(): boolean {
    return this.messages.length > 0;
  }
}
