import { IncomingMessage, type ServerResponse } from 'node:http';

/** Small request/response helpers for the provider's own routes (the provider itself is a Koa app). */

export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const BODY_LIMIT = 64 * 1024;

export async function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw new RequestError(413, 'Request body too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new RequestError(413, 'Request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const mediaType = (req: IncomingMessage) => (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  if (mediaType(req) !== 'application/x-www-form-urlencoded') throw new RequestError(415, 'Expected a form');
  return new URLSearchParams(await readBody(req));
}

/** JSON or form body as a flat record of strings (Auth0's endpoints accept both). */
export async function readFields(req: IncomingMessage): Promise<Record<string, string>> {
  const type = mediaType(req);
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(req));
    } catch {
      throw new RequestError(400, 'Malformed JSON body');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new RequestError(400, 'Expected a JSON object');
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(await readBody(req)));
  throw new RequestError(415, 'Expected JSON or a form');
}

/**
 * A copy of the request whose body is `body`: the original stream has been read to rewrite it,
 * and the provider reads the body from the stream it is given.
 */
export function withBody(req: IncomingMessage, body: string, headers: Record<string, string> = {}): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  const bytes = Buffer.from(body, 'utf8');
  copy.method = req.method;
  copy.url = req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.headers = { ...req.headers, ...headers, 'content-length': String(bytes.length) };
  delete copy.headers['transfer-encoding'];
  copy.push(bytes);
  copy.push(null);
  // Without this, Node takes the copy for an aborted upload when it ends and destroys the socket.
  copy.complete = true;
  return copy;
}

export function redirect(res: ServerResponse, location: string, status = 303): void {
  res.statusCode = status;
  res.setHeader('location', location);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-length', '0');
  res.end();
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(text, 'utf8');
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.setHeader('content-length', body.length);
  res.setHeader('cache-control', 'no-store');
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', body.length);
  res.setHeader('cache-control', 'no-store');
  res.end(body);
}
