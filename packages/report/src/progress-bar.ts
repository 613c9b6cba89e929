/** Where a progress bar draws: stderr, or a stand-in in tests. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * A progress bar on stderr for long work: nothing for the first second (most reports are instant), nothing
 * when stderr is not a terminal (CI logs, pipes), and the line is cleared when the work is done.
 */
export class ProgressBar {
  private readonly started: number;
  private shown = false;

  constructor(
    private readonly label: string,
    private readonly stream: ProgressStream = process.stderr,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  update = (done: number, total: number): void => {
    if (!this.stream.isTTY || this.now() - this.started < 1000 || total === 0) return;
    const width = 30;
    const filled = Math.round((width * done) / total);
    this.stream.write(
      `\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`,
    );
    this.shown = true;
  };

  finish(): void {
    if (this.shown) this.stream.write('\r\u001b[2K');
  }
}
