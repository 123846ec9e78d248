// The runner bridge's framing (bridge.ts, plugins/bridgeClient.ts): a request is one line of JSON;
// a request whose `bytes` is a count is followed by exactly that many bytes of data (a batch's
// COPY rows), which never pass through JSON. Chunks arrive as the socket cuts them.

/** A request read whole: its JSON (undefined when the line is no JSON object) and its data, if it said `bytes`. */
export interface Frame {
  request: Record<string, unknown> | undefined;
  data?: Buffer;
}

/** The frames a chunk completed, and the error that ends the connection (after which nothing more is read). */
interface FramesRead {
  frames: Frame[];
  error?: string;
}

export class FrameReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** a request whose data is still arriving */
  private awaiting: { request: Record<string, unknown>; bytes: number } | undefined;
  private ended = false;

  constructor(
    private maxLineBytes: number,
    private maxDataBytes: number,
  ) {}

  /** New limits for what is read from now on (the bridge's are small until a job's token is accepted). */
  setLimits(maxLineBytes: number, maxDataBytes: number): void {
    this.maxLineBytes = maxLineBytes;
    this.maxDataBytes = maxDataBytes;
  }

  push(chunk: Buffer): FramesRead {
    const frames: Frame[] = [];
    if (this.ended) return { frames };
    let rest = chunk;
    while (rest.length > 0) {
      if (this.awaiting) {
        const take = rest.subarray(0, this.awaiting.bytes - this.size);
        this.add(take);
        rest = rest.subarray(take.length);
        if (this.size === this.awaiting.bytes) {
          frames.push({ request: this.awaiting.request, data: this.take() });
          this.awaiting = undefined;
        }
        continue;
      }
      const newline = rest.indexOf(0x0a);
      this.add(newline < 0 ? rest : rest.subarray(0, newline));
      if (this.size > this.maxLineBytes) return this.end(frames, 'request too large');
      if (newline < 0) break;
      rest = rest.subarray(newline + 1);
      const request = parseObject(this.take().toString('utf8'));
      const bytes = request?.bytes;
      if (bytes === undefined) {
        frames.push({ request });
        continue;
      }
      if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) return this.end(frames, 'bytes must be a count of bytes');
      if (bytes > this.maxDataBytes) return this.end(frames, 'request too large');
      if (bytes === 0) frames.push({ request, data: Buffer.alloc(0) });
      else this.awaiting = { request: request!, bytes };
    }
    return { frames };
  }

  private add(part: Buffer): void {
    if (part.length === 0) return;
    this.parts.push(part);
    this.size += part.length;
  }

  private take(): Buffer {
    const whole = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size); // an empty line: no parts, an empty buffer
    this.parts = [];
    this.size = 0;
    return whole;
  }

  private end(frames: Frame[], error: string): FramesRead {
    this.ended = true;
    this.parts = [];
    this.size = 0;
    return { frames, error };
  }
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
