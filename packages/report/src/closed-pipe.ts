/**
 * A reader that stops early (`pathprof-report json | head`) closes the pipe, and the next write fails with
 * EPIPE, which Node raises as an unhandled 'error' event: a stack trace after the output the user asked for.
 * The bins stop quietly instead, as `cat` does, with the exit code set so far.
 */
export function exitQuietlyWhenPipeCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit();
    });
  }
}
