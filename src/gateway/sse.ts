// A server-sent-events reader for the bytes the gateway passes through: it watches the stream to
// learn the usage and tool calls. With `onBlock`, it also hands on each block as it came (its blank
// line included), for a relay that leaves a block out (call.ts: the usage chunk the gateway asked for).
export interface SseEvent {
  event?: string;
  data: string;
}

export class SseReader {
  private buf = '';
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly onEvent: (e: SseEvent) => void,
    private readonly onBlock?: (raw: string, e: SseEvent | null) => void,
  ) {}

  push(chunk: Uint8Array): void {
    this.buf += this.decoder.decode(chunk, { stream: true });
    for (;;) {
      const m = /\r?\n\r?\n/.exec(this.buf);
      if (!m) break;
      const block = this.buf.slice(0, m.index);
      const raw = this.buf.slice(0, m.index + m[0].length);
      this.buf = this.buf.slice(m.index + m[0].length);
      this.block(block, raw);
    }
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    this.buf += this.decoder.decode();
    if (this.buf.trim()) this.block(this.buf, this.buf);
    else if (this.buf) this.onBlock?.(this.buf, null);
    this.buf = '';
  }

  private block(block: string, raw: string): void {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
      else if (line.startsWith('event:')) event = line.slice(6).trim();
    }
    const e = data.length ? { event, data: data.join('\n') } : null;
    if (e) this.onEvent(e);
    this.onBlock?.(raw, e);
  }
}
