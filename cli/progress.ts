// Progress of long commands on a terminal: one line on stderr, rewritten in place, with the count
// done of the total, the elapsed time and an estimate of what remains. Nothing at all when stderr
// is not a terminal or the output is machine-readable, so pipes and CI logs stay clean.

function clock(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(0)}s`;
}

export class Progress {
  private readonly t0 = performance.now();
  private done = 0;
  private readonly on: boolean;

  constructor(private readonly total: number, quiet: boolean) {
    this.on = !quiet && process.stderr.isTTY === true && total > 1;
  }

  /** Before starting an item: shows what is being done now. */
  start(what: string): void {
    if (!this.on) return;
    const s = (performance.now() - this.t0) / 1000;
    const eta = this.done > 0 ? (s / this.done) * (this.total - this.done) : NaN;
    const line = `[${this.done}/${this.total}] ${clock(s)} elapsed, ${this.done > 0 ? `~${clock(eta)} left` : 'estimating'} · ${what}`;
    process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns ?? 100) - 1)}`);
  }

  /** After an item; clears the line so that ordinary output is not mixed with it. */
  step(): void {
    this.done++;
    if (this.on) process.stderr.write('\r\x1b[K');
  }

  end(): void {
    if (this.on) process.stderr.write('\r\x1b[K');
  }
}
