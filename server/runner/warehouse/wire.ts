// The few PostgreSQL protocol messages the store proxy writes itself, and a reader of the typed
// messages (a type byte, then a length that counts itself) it reads during authentication. After
// that the proxy only copies bytes and reads nothing.

import { PROTOCOL_3_0 } from './startupMessage';

/** A typed message: its type byte, then a length that counts itself and the body. */
export function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** FATAL ErrorResponse with an SQLSTATE: what a client shows, then the proxy hangs up. */
export function fatalError(sqlState: string, text: string): Buffer {
  return message('E', Buffer.concat([Buffer.from('SFATAL\0', 'utf8'), Buffer.from('VFATAL\0', 'utf8'), cstring(`C${sqlState}`), cstring(`M${text}`), Buffer.from([0])]));
}

export const authenticationOk = (): Buffer => message('R', int32(0));
export const askCleartextPassword = (): Buffer => message('R', int32(3));
export const passwordMessage = (password: string): Buffer => message('p', cstring(password));

export function startupMessage(parameters: ReadonlyMap<string, string>): Buffer {
  const body = Buffer.concat([int32(PROTOCOL_3_0), ...[...parameters].flatMap(([k, v]) => [cstring(k), cstring(v)]), Buffer.from([0])]);
  return Buffer.concat([int32(body.length + 4), body]);
}

export function saslInitialResponse(mechanism: string, data: string): Buffer {
  const bytes = Buffer.from(data, 'utf8');
  return message('p', Buffer.concat([cstring(mechanism), int32(bytes.length), bytes]));
}

export const saslResponse = (data: string): Buffer => message('p', Buffer.from(data, 'utf8'));

interface TypedMessage {
  type: string;
  body: Buffer;
}

/**
 * Splits a byte stream into typed messages. A message longer than `maxBytes` is an error: during
 * authentication nothing legitimate is large.
 */
export class MessageReader {
  private buffer: Buffer = Buffer.alloc(0);
  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
  }

  /** the next whole message, undefined when more bytes are needed; throws on a malformed length */
  next(): TypedMessage | undefined {
    if (this.buffer.length < 5) return undefined;
    const length = this.buffer.readInt32BE(1);
    if (length < 4 || length > this.maxBytes) throw new Error(`a message of ${length} bytes`);
    if (this.buffer.length < 1 + length) return undefined;
    const type = String.fromCharCode(this.buffer[0]!);
    const body = this.buffer.subarray(5, 1 + length);
    this.buffer = this.buffer.subarray(1 + length);
    return { type, body };
  }

  /** what arrived after the messages read so far */
  rest(): Buffer {
    const rest = this.buffer;
    this.buffer = Buffer.alloc(0);
    return rest;
  }
}

/** The human part of an ErrorResponse body (its M field), for the server's log. */
export function errorText(body: Buffer): string {
  for (const field of body.toString('utf8').split('\0')) if (field.startsWith('M')) return field.slice(1);
  return 'an error';
}
