// The trial data of report.html, made during the report's own pass over the result files: each trial's
// page entry (html.ts pageTrial, escaped) is appended to a temp file as its result goes by, and the
// page is then written from that one file, not from a second read and parse of every result file.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrialResult } from '../types.ts';
import { tempPathFor } from './write.ts';

/** Written out at this many characters: small, so that the pieces die young rather than be promoted. */
const FLUSH_CHARS = 1 << 16;
/** Read back in chunks of this size. */
const READ_CHUNK = 1 << 20;

/**
 * Which trials a page of a large run embeds (docs/reports.md#reporthtml): every trial in order
 * until `all` bytes, then only those that did not pass until `all + more`; the rest are left to the
 * result files (`benchrig view` loads them on demand). `limit` null: every trial. The first entry
 * refused closes its share for every later trial, whose entry is then never made: the share kept
 * open made and refused an entry a trial (~50 µs), a million at a million trials.
 */
export class PageBudget {
  shown = 0;
  left = 0;
  #bytes = 0;
  /** A trial that passed was refused: no later one that passed enters. */
  #passedFull = false;
  /** A trial that did not pass was refused: no later trial enters. */
  #full = false;
  constructor(readonly limit: { all: number; more: number } | null) {}

  /** Whether `r` may still enter, asked before its entry is made. */
  wants(r: Pick<TrialResult, 'status'>): boolean {
    const l = this.limit;
    const ok =
      !l ||
      (r.status === 'PASSED' ? !this.#passedFull && this.#bytes < l.all : !this.#full && this.#bytes < l.all + l.more);
    if (!ok) this.left++;
    return ok;
  }

  /** Counts `entry` in when it fits. */
  admit(r: Pick<TrialResult, 'status'>, entry: string): boolean {
    const l = this.limit;
    const total = l ? this.#bytes + Buffer.byteLength(entry) : 0;
    const passed = r.status === 'PASSED';
    const ok = !l || total <= l.all || (!passed && total <= l.all + l.more);
    if (ok) {
      this.#bytes = total;
      this.shown++;
    } else {
      this.left++;
      if (passed) this.#passedFull = true;
      else this.#full = true;
    }
    return ok;
  }
}

export class TrialPageSpool {
  #pending = '';
  #count = 0;
  #fd: number | null;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly page: (r: TrialResult) => string,
    readonly budget: PageBudget,
  ) {
    this.#fd = fd;
  }

  /** A spool in `dir` (made if missing); `page` turns a result into its escaped JSON entry. */
  static async open(
    dir: string,
    page: (r: TrialResult) => string,
    budget = new PageBudget(null),
  ): Promise<TrialPageSpool> {
    await mkdir(dir, { recursive: true });
    const path = tempPathFor(join(dir, 'report-trials.json'));
    return new TrialPageSpool(path, openSync(path, 'w'), page, budget);
  }

  /** The results, unchanged, each also added to the spool as it passes. */
  async *tee(results: Iterable<TrialResult> | AsyncIterable<TrialResult>): AsyncIterable<TrialResult> {
    for await (const r of results) {
      this.add(r);
      yield r;
    }
  }

  /** A write failed (a full disk): the page is then made from the result files, not from here. */
  failed = false;

  add(r: TrialResult): void {
    if (this.failed || !this.budget.wants(r)) return;
    try {
      const entry = this.page(r);
      if (!this.budget.admit(r, entry)) return;
      this.#pending += (this.#count++ === 0 ? '' : ',') + entry;
      if (this.#pending.length >= FLUSH_CHARS) this.#flush();
    } catch {
      this.failed = true; // the report's own pass goes on: report.html is the one to lose
      this.#pending = '';
    }
  }

  /**
   * The entries, comma-separated, as written: call once every result has been added. One buffer is
   * read into again and again, and each chunk must be used (written) before the next is asked for,
   * as writeChunksAtomic does: a new Buffer a chunk left up to V8's external-memory limit (~64 MB)
   * of dead ones behind before a GC freed them, the run's peak RSS (measured at 100,000 trials).
   */
  async *chunks(): AsyncIterable<Buffer> {
    this.#flush();
    closeSync(this.#open());
    this.#fd = openSync(this.path, 'r');
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    for (let n = readSync(this.#fd, buf, 0, READ_CHUNK, null); n > 0; n = readSync(this.#fd, buf, 0, READ_CHUNK, null))
      yield buf.subarray(0, n);
    closeSync(this.#fd);
    this.#fd = null;
  }

  async dispose(): Promise<void> {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    await rm(this.path, { force: true });
  }

  #flush(): void {
    if (this.#pending) writeSync(this.#open(), this.#pending);
    this.#pending = '';
  }

  #open(): number {
    if (this.#fd === null) throw new Error('internal: the trial page spool was used after chunks() or dispose()');
    return this.#fd;
  }
}
