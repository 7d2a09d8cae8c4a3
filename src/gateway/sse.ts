// A server-sent-events reader for the bytes the gateway passes through: it never holds back or
// changes a byte sent to the agent, it only watches the stream to learn the usage and tool calls.
export interface SseEvent {
  event?: string;
  data: string;
}

export class SseReader {
  private buf = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly onEvent: (e: SseEvent) => void) {}

  push(chunk: Uint8Array): void {
    this.buf += this.decoder.decode(chunk, { stream: true });
    for (;;) {
      const m = /\r?\n\r?\n/.exec(this.buf);
      if (!m) break;
      const block = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      this.block(block);
    }
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    this.buf += this.decoder.decode();
    if (this.buf.trim()) this.block(this.buf);
    this.buf = '';
  }

  private block(block: string): void {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
      else if (line.startsWith('event:')) event = line.slice(6).trim();
    }
    if (data.length) this.onEvent({ event, data: data.join('\n') });
  }
}
