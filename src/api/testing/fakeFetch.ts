// A scripted stand-in for `fetch`, used only by the tests of this folder (and of callers that
// want to exercise the real client without a network). Each call takes the next reply.

export type FakeReply =
  | { readonly status?: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly networkError: true }
  /** Never answers; rejects with an AbortError when the request's signal aborts. */
  | { readonly hang: true };

type RecordedCall = {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  /** The request body decoded as JSON when it is JSON text. */
  readonly body: unknown;
  /** The request's abort signal: whether the caller cancelled it. */
  readonly signal: AbortSignal | undefined;
};

type FakeFetch = {
  readonly fetch: typeof fetch;
  readonly calls: RecordedCall[];
};

export function fakeFetch(...replies: (FakeReply | ((call: RecordedCall) => FakeReply))[]): FakeFetch {
  const calls: RecordedCall[] = [];
  const queue = [...replies];
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const call: RecordedCall = {
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: (init?.method ?? 'GET').toUpperCase(),
      headers: new Headers(init?.headers),
      body: decodeBody(init?.body),
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    const signal = call.signal;
    if (signal?.aborted === true) return Promise.reject(abortError());
    const next = queue.shift();
    if (next === undefined) return Promise.reject(new Error(`fakeFetch: no reply scripted for call ${calls.length} (${call.method} ${call.url})`));
    const reply = typeof next === 'function' ? next(call) : next;
    if ('networkError' in reply) return Promise.reject(new TypeError('fetch failed'));
    if ('hang' in reply) {
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(abortError()), { once: true });
      });
    }
    return Promise.resolve(toResponse(reply));
  };
  return { fetch: fetchFn, calls };
}

function toResponse(reply: { status?: number; body?: unknown; headers?: Readonly<Record<string, string>> }): Response {
  const status = reply.status ?? 200;
  if (reply.body === undefined || status === 204 || status === 205) return new Response(null, { status, headers: reply.headers ?? {} });
  if (typeof reply.body === 'string') {
    return new Response(reply.body, { status, headers: { 'content-type': 'text/plain', ...reply.headers } });
  }
  return new Response(JSON.stringify(reply.body), { status, headers: { 'content-type': 'application/hal+json', ...reply.headers } });
}

function decodeBody(body: unknown): unknown {
  if (typeof body !== 'string') return body ?? undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

function abortError(): Error {
  const error = new Error('The operation was aborted.');
  error.name = 'AbortError';
  return error;
}
