// The first message a PostgreSQL client sends (protocol 3.0, "Message Formats"): a length, a code,
// and for a StartupMessage the session's parameters as NUL-terminated name/value pairs. The store
// proxy (storeProxy.ts) reads it from a job, which is untrusted: this parser never throws, never
// reads past what it was given, and refuses anything PostgreSQL itself would refuse before it
// trusts a byte of it.

export const PROTOCOL_3_0 = 196_608; // 3 << 16
export const SSL_REQUEST = 80_877_103;
export const GSSENC_REQUEST = 80_877_104;
export const CANCEL_REQUEST = 80_877_102;
/** PostgreSQL's own bound on a startup packet (MAX_STARTUP_PACKET_LENGTH) */
export const MAX_STARTUP_BYTES = 10_000;

type FirstMessage =
  /** more bytes are needed (never more than MAX_STARTUP_BYTES in all) */
  | { kind: 'incomplete' }
  | { kind: 'ssl'; size: 8 }
  | { kind: 'gssenc'; size: 8 }
  | { kind: 'cancel'; size: 16 }
  | { kind: 'startup'; size: number; parameters: ReadonlyMap<string, string> }
  | { kind: 'invalid'; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the message at the start of `bytes`; `size` says how many bytes it took. */
export function readFirstMessage(bytes: Uint8Array): FirstMessage {
  if (bytes.length < 8) return bytes.length >= 4 && !plausibleLength(readInt32(bytes, 0)) ? invalid(readInt32(bytes, 0)) : { kind: 'incomplete' };
  const length = readInt32(bytes, 0);
  if (!plausibleLength(length)) return invalid(length);
  const code = readInt32(bytes, 4);
  if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
    if (length !== 8) return { kind: 'invalid', reason: 'an encryption request is 8 bytes' };
    return { kind: code === SSL_REQUEST ? 'ssl' : 'gssenc', size: 8 };
  }
  if (code === CANCEL_REQUEST) {
    if (length !== 16) return { kind: 'invalid', reason: 'a cancel request is 16 bytes' };
    return bytes.length < 16 ? { kind: 'incomplete' } : { kind: 'cancel', size: 16 };
  }
  if (code !== PROTOCOL_3_0) return { kind: 'invalid', reason: `unsupported protocol ${code >>> 16}.${code & 0xffff}: this proxy speaks 3.0` };
  if (bytes.length < length) return { kind: 'incomplete' };
  const parameters = readParameters(bytes.subarray(8, length));
  if (typeof parameters === 'string') return { kind: 'invalid', reason: parameters };
  return { kind: 'startup', size: length, parameters };
}

function plausibleLength(length: number): boolean {
  return length >= 8 && length <= MAX_STARTUP_BYTES;
}

function invalid(length: number): FirstMessage {
  return { kind: 'invalid', reason: length < 8 ? 'a startup message is at least 8 bytes' : `a startup message is at most ${MAX_STARTUP_BYTES} bytes` };
}

/** name\0value\0…\0: exactly, with the last NUL ending the body; an error text otherwise. */
function readParameters(body: Uint8Array): Map<string, string> | string {
  const parameters = new Map<string, string>();
  let at = 0;
  for (;;) {
    if (at >= body.length) return 'the parameters do not end with a NUL';
    if (body[at] === 0) return at === body.length - 1 ? parameters : 'bytes after the parameters';
    const name = readCString(body, at);
    if (!name) return 'a parameter name is not terminated, or not UTF-8';
    const value = readCString(body, name.next);
    if (!value) return `parameter ${name.text} has no terminated UTF-8 value`;
    if (parameters.has(name.text)) return `parameter ${name.text} is given twice`;
    parameters.set(name.text, value.text);
    at = value.next;
  }
}

function readCString(bytes: Uint8Array, from: number): { text: string; next: number } | undefined {
  const end = bytes.indexOf(0, from);
  if (end < 0) return undefined;
  try {
    return { text: utf8.decode(bytes.subarray(from, end)), next: end + 1 };
  } catch {
    return undefined;
  }
}

function readInt32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}
