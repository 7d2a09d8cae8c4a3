// The trial data of report.html, made during the report's own pass over the result files: each
// trial's page entry (html.ts pageTrial, escaped) is appended to a temp file as its result goes by,
// and the page is then written from that one file, not from a second read of every result file.
// A result file read and parsed twice was the largest part of the report's cost in a run's main
// thread (~0.02 ms a trial of the issue 17 workload, --cpu-prof). The bytes of the page are the same.
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrialResult } from '../types.ts';
import { tempPathFor } from './write.ts';

/** Written out at this many characters: small, so that the pieces die young rather than be promoted. */
const FLUSH_CHARS = 1 << 16;
/** Read back in chunks of this size. */
const READ_CHUNK = 1 << 20;

export class TrialPageSpool {
  #pending = '';
  #count = 0;
  #fd: number | null;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly page: (r: TrialResult) => string,
  ) {
    this.#fd = fd;
  }

  /** A spool in `dir` (made if missing); `page` turns a result into its escaped JSON entry. */
  static async open(dir: string, page: (r: TrialResult) => string): Promise<TrialPageSpool> {
    await mkdir(dir, { recursive: true });
    const path = tempPathFor(join(dir, 'report-trials.json'));
    return new TrialPageSpool(path, openSync(path, 'w'), page);
  }

  /** The results, unchanged, each also added to the spool as it passes. */
  async *tee(results: AsyncIterable<TrialResult>): AsyncIterable<TrialResult> {
    for await (const r of results) {
      this.add(r);
      yield r;
    }
  }

  /** A write failed (a full disk): the page is then made from the result files, not from here. */
  failed = false;

  add(r: TrialResult): void {
    if (this.failed) return;
    try {
      this.#pending += (this.#count++ === 0 ? '' : ',') + this.page(r);
      if (this.#pending.length >= FLUSH_CHARS) this.#flush();
    } catch {
      this.failed = true; // the report's own pass goes on: report.html is the one to lose
      this.#pending = '';
    }
  }

  /** The entries, comma-separated, as written: call once every result has been added. */
  async *chunks(): AsyncIterable<Buffer> {
    this.#flush();
    closeSync(this.#fd!);
    this.#fd = null;
    for await (const chunk of createReadStream(this.path, { highWaterMark: READ_CHUNK })) yield chunk as Buffer;
  }

  async dispose(): Promise<void> {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    await rm(this.path, { force: true });
  }

  #flush(): void {
    if (this.#pending) writeSync(this.#fd!, this.#pending);
    this.#pending = '';
  }
}
