/**
 * The progress of a run. On a terminal a status line is rewritten in place while a round runs and
 * each finished round leaves one line; elsewhere (CI logs, a pipe) only the finished lines appear.
 */
export class Progress {
  private readonly tty = process.stdout.isTTY === true;
  private readonly started = Date.now();

  /** Shown in place until the next status or line; nothing when not on a terminal. */
  status(text: string): void {
    if (this.tty) process.stdout.write(`\r\x1b[K${this.stamp()} ${text}`.slice(0, (process.stdout.columns ?? 120) + 5));
  }

  line(text: string): void {
    process.stdout.write(`${this.tty ? '\r\x1b[K' : ''}${this.stamp()} ${text}\n`);
  }

  private stamp(): string {
    const seconds = Math.round((Date.now() - this.started) / 1000);
    return `[${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}]`;
  }
}
