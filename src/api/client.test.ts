import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { workspaceSchema } from '../domain/resources';
import { createApiClient, defaultRetryDelay, type ApiClientConfig } from './client';
import { ApiFailure, fieldErrors, isIgnored, toApiError, type ApiError } from './errors';
import { fakeFetch, type FakeReply } from './testing/fakeFetch';

const BASE = 'http://api.test/api';
const workspace = { id: 'w1', name: 'Demo', _links: { self: { href: `${BASE}/workspaces/w1` } } };
const springError = (status: number, message: string, errors?: unknown[]) => ({
  timestamp: '2024-01-01T00:00:00Z',
  status,
  error: 'Error',
  message,
  path: '/api/x',
  ...(errors === undefined ? {} : { errors }),
});

function setup(replies: FakeReply[], config: Partial<ApiClientConfig> = {}) {
  const fake = fakeFetch(...replies);
  const delays: number[] = [];
  const client = createApiClient({
    baseURL: BASE,
    getToken: () => Promise.resolve('token-1'),
    fetch: fake.fetch,
    retryDelay: (attempt) => {
      delays.push(attempt);
      return 1;
    },
    ...config,
  });
  return { client, calls: fake.calls, delays };
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiFailure);
    return toApiError(error);
  }
  throw new Error('expected the call to fail');
}

describe('requests', () => {
  it('sends the bearer token, the HAL Accept header and resolves paths under the base URL', async () => {
    const { client, calls } = setup([{ body: workspace }]);
    const result = await client.get('/workspaces/w1', workspaceSchema);
    expect(result.name).toBe('Demo');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(`${BASE}/workspaces/w1`);
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer token-1');
    expect(calls[0]!.headers.get('accept')).toBe('application/hal+json, application/json');
  });

  it('asks for a token on every attempt, so a refreshed token is used on retry', async () => {
    const tokens = ['old', 'new'];
    const { client, calls } = setup([{ status: 503 }, { body: workspace }], { getToken: () => Promise.resolve(tokens.shift() ?? 'none') });
    await client.get('/workspaces/w1', workspaceSchema);
    expect(calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer old', 'Bearer new']);
  });

  it('sends JSON bodies and drops undefined query values', async () => {
    const { client, calls } = setup([{ status: 204 }]);
    await client.post('/things', { name: 'x' }, undefined, { query: { a: 1, b: undefined, c: null, d: 'two words' } });
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.body).toEqual({ name: 'x' });
    expect(calls[0]!.headers.get('content-type')).toBe('application/json');
    expect(calls[0]!.url).toBe(`${BASE}/things?a=1&d=two+words`);
  });

  it('returns undefined for a 204 answer to a mutation, even with a schema', async () => {
    const { client } = setup([{ status: 204 }, { status: 200 }]);
    await expect(client.post('/x', {}, workspaceSchema)).resolves.toBeUndefined();
    await expect(client.delete('/x', {}, workspaceSchema)).resolves.toBeUndefined();
  });

  it('fails a GET answered with 204 when the schema wants a body', async () => {
    const { client } = setup([{ status: 204 }]);
    expect((await failureOf(client.get('/workspaces/w1', workspaceSchema))).kind).toBe('parse');
  });

  it('names the failing field when the body does not match the schema', async () => {
    const { client } = setup([{ body: { id: 'w1', name: 42 } }]);
    const error = await failureOf(client.get('/workspaces/w1', workspaceSchema));
    expect(error.kind).toBe('parse');
    if (error.kind !== 'parse') return;
    expect(error.message).toContain("field 'name'");
    expect(error.issues.map((i) => i.field)).toContain('name');
  });

  it('names nested fields', async () => {
    const schema = z.object({ profile: z.object({ email: z.string() }) });
    const { client } = setup([{ body: { profile: { email: null } } }]);
    const error = await failureOf(client.get('/p', schema));
    expect(error.kind === 'parse' && error.message).toContain("field 'profile.email'");
  });
});

describe('retries', () => {
  it('retries a 503 exactly 3 times with growing back-off, then gives up', async () => {
    const { client, calls, delays } = setup([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { body: workspace }]);
    const error = await failureOf(client.get('/workspaces/w1', workspaceSchema));
    expect(calls).toHaveLength(4);
    expect(delays).toEqual([0, 1, 2]);
    expect(error).toEqual({ kind: 'response', status: 503, message: '[503]' });
  });

  it('retries network errors exactly 3 times, then reports no connection', async () => {
    const net = { networkError: true } as const;
    const { client, calls } = setup([net, net, net, net, { body: workspace }]);
    const error = await failureOf(client.get('/workspaces/w1', workspaceSchema));
    expect(calls).toHaveLength(4);
    expect(error).toEqual({ kind: 'network', message: 'We were unable to connect.' });
  });

  it.each([408, 429, 500, 502, 504])('retries status %i and succeeds when the server recovers', async (status) => {
    const { client, calls } = setup([{ status }, { body: workspace }]);
    await expect(client.get('/workspaces/w1', workspaceSchema)).resolves.toMatchObject({ id: 'w1' });
    expect(calls).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422])('never retries status %i', async (status) => {
    const { client, calls } = setup([{ status, body: springError(status, 'no') }, { body: workspace }]);
    await failureOf(client.get('/workspaces/w1', workspaceSchema));
    expect(calls).toHaveLength(1);
  });

  it.each(['post', 'patch'] as const)('does not repeat a %s the server answered with 503', async (method) => {
    const { client, calls } = setup([{ status: 503 }, { status: 204 }]);
    await failureOf(client[method]('/x', {}));
    expect(calls).toHaveLength(1);
  });

  it('repeats a POST whose request got no response at all', async () => {
    const { client, calls } = setup([{ networkError: true }, { status: 204 }]);
    await client.post('/x', {});
    expect(calls).toHaveLength(2);
  });

  it('makes one attempt only when the call says retry: false', async () => {
    const { client, calls } = setup([{ networkError: true }, { status: 204 }]);
    expect((await failureOf(client.post('/pipelines', {}, undefined, { retry: false }))).kind).toBe('network');
    expect(calls).toHaveLength(1);
    const get = setup([{ status: 503 }, { body: workspace }]);
    await failureOf(get.client.get('/workspaces/w1', workspaceSchema, { retry: false }));
    expect(get.calls).toHaveLength(1);
  });

  it.each(['put', 'delete'] as const)('retries an idempotent %s after a 503', async (method) => {
    const { client, calls } = setup([{ status: 503 }, { status: 204 }]);
    await client[method]('/x', {});
    expect(calls).toHaveLength(2);
  });

  it('backs off exponentially from 300 ms by default', () => {
    expect([0, 1, 2].map(defaultRetryDelay)).toEqual([300, 600, 1200]);
  });

  it('waits the back-off between attempts', async () => {
    vi.useFakeTimers();
    try {
      const { client, calls } = setup([{ status: 503 }, { body: workspace }], { retryDelay: defaultRetryDelay });
      const pending = client.get('/workspaces/w1', workspaceSchema);
      await vi.advanceTimersByTimeAsync(299);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(pending).resolves.toMatchObject({ id: 'w1' });
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('cancellation', () => {
  it('is cancelled without a request when the signal is already aborted', async () => {
    const { client, calls } = setup([{ body: workspace }]);
    const controller = new AbortController();
    controller.abort();
    const error = await failureOf(client.get('/workspaces/w1', workspaceSchema, { signal: controller.signal }));
    expect(error).toEqual({ kind: 'cancelled' });
    expect(calls).toHaveLength(0);
  });

  it('is cancelled when aborted while the request is in flight', async () => {
    const { client } = setup([{ hang: true }]);
    const controller = new AbortController();
    const pending = client.get('/workspaces/w1', workspaceSchema, { signal: controller.signal });
    setTimeout(() => controller.abort(), 1);
    const failure = await pending.catch((error: unknown) => error);
    expect(toApiError(failure)).toEqual({ kind: 'cancelled' });
    expect(isIgnored(failure)).toBe(true);
  });

  it('stops retrying when aborted during the back-off', async () => {
    const controller = new AbortController();
    const { client, calls } = setup([{ status: 503 }, { body: workspace }], {
      retryDelay: () => {
        setTimeout(() => controller.abort(), 1);
        return 1_000;
      },
    });
    const error = await failureOf(client.get('/workspaces/w1', workspaceSchema, { signal: controller.signal }));
    expect(error.kind).toBe('cancelled');
    expect(calls).toHaveLength(1);
  });
});

describe('error reporting hook', () => {
  it('reports each failure once, after the retries, with the request', async () => {
    const reported: Array<{ kind: string; method: string; url: string }> = [];
    const { client, calls } = setup([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }], {
      onError: (failure, request) => reported.push({ kind: failure.apiError.kind, ...request }),
    });
    await failureOf(client.get('/workspaces/w1', workspaceSchema));
    expect(calls).toHaveLength(4);
    expect(reported).toEqual([{ kind: 'response', method: 'GET', url: `${BASE}/workspaces/w1` }]);
  });

  it('does not report cancelled calls or calls flagged to skip the handler, nor successes', async () => {
    const onError = vi.fn();
    const { client } = setup([{ status: 404, body: springError(404, 'gone') }, { body: workspace }], { onError });
    await failureOf(client.get('/workspaces/w1', workspaceSchema, { skipErrorHandler: true }));
    await client.get('/workspaces/w1', workspaceSchema);
    const controller = new AbortController();
    controller.abort();
    await failureOf(client.get('/workspaces/w1', workspaceSchema, { signal: controller.signal }));
    expect(onError).not.toHaveBeenCalled();
  });

  it('adds the configured headers to every call', async () => {
    const { client, calls } = setup([{ body: workspace }], { headers: () => ({ traceparent: '00-abc-def-01' }) });
    await client.get('/workspaces/w1', workspaceSchema);
    expect(calls[0]!.headers.get('traceparent')).toBe('00-abc-def-01');
  });
});

describe('error mapping (spec 000 section 8)', () => {
  it('a 5xx with a message body is a server error carrying that message (after the retries)', async () => {
    const { client, calls } = setup(Array.from({ length: 4 }, () => ({ status: 500, body: springError(500, 'Database is down') })));
    expect(await failureOf(client.get('/x', workspaceSchema))).toEqual({ kind: 'server', status: 500, message: 'Database is down' });
    expect(calls).toHaveLength(4);
  });

  it('a 5xx with a text body is a server error with that text', async () => {
    const { client } = setup([{ status: 502, body: 'Bad gateway' }]);
    expect(await failureOf(client.post('/x', {}))).toEqual({ kind: 'server', status: 502, message: 'Bad gateway' });
  });

  it('HTTP 401 is unauthorized', async () => {
    const { client } = setup([{ status: 401, body: springError(401, 'Unauthorized') }]);
    expect(await failureOf(client.get('/x', workspaceSchema))).toEqual({ kind: 'unauthorized' });
  });

  it.each(['login_required', 'consent_required'])('a token failure %s is unauthorized, and no request is sent', async (code) => {
    const { client, calls } = setup([{ body: workspace }], { getToken: () => Promise.reject(Object.assign(new Error(code), { error: code })) });
    expect(await failureOf(client.get('/x', workspaceSchema))).toEqual({ kind: 'unauthorized' });
    expect(calls).toHaveLength(0);
  });

  it('another response error is "[status] {body}" with the parsed body and its field errors', async () => {
    const body = springError(400, 'Validation failed', [{ field: 'name', objectName: 'apiKey', defaultMessage: 'Name is mandatory' }]);
    const { client } = setup([{ status: 400, body }]);
    const failure = await client.post('/apikeys', {}).catch((error: unknown) => error);
    const error = toApiError(failure);
    expect(error.kind).toBe('response');
    if (error.kind !== 'response') return;
    expect(error.status).toBe(400);
    expect(error.message).toBe(`[400] ${JSON.stringify(body)}`);
    expect(error.body?.errors?.[0]?.field).toBe('name');
    expect(fieldErrors(failure)).toEqual({ name: 'Name is mandatory' });
  });

  it('a text 404 shows the text', async () => {
    const { client } = setup([{ status: 404, body: 'Not here' }]);
    expect(await failureOf(client.get('/x', workspaceSchema))).toEqual({ kind: 'response', status: 404, message: '[404] Not here' });
  });

  it('requests flagged skipErrorHandler are ignored by the handler, with the real error kept', async () => {
    const { client } = setup([{ status: 404, body: 'Not here' }]);
    const failure = await client.get('/x', workspaceSchema, { skipErrorHandler: true }).catch((error: unknown) => error);
    expect(isIgnored(failure)).toBe(true);
    expect(toApiError(failure).kind).toBe('response');
  });

  it('an unflagged failure is not ignored', async () => {
    const { client } = setup([{ status: 404, body: 'Not here' }]);
    const failure = await client.get('/x', workspaceSchema).catch((error: unknown) => error);
    expect(isIgnored(failure)).toBe(false);
  });

  it('a token getter failing for another reason is an unexpected error', async () => {
    const { client } = setup([], { getToken: () => Promise.reject(new Error('storage broken')) });
    expect(await failureOf(client.get('/x', workspaceSchema))).toEqual({ kind: 'unknown', message: 'An unexpected error occurred.' });
  });
});

describe('link following', () => {
  it('follows an absolute href', async () => {
    const { client, calls } = setup([{ body: workspace }]);
    await client.follow(workspace, 'self', { schema: workspaceSchema });
    expect(calls[0]!.url).toBe(`${BASE}/workspaces/w1`);
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer token-1');
  });

  it('resolves a relative href against the base URL', async () => {
    const { client, calls } = setup([{ status: 204 }, { status: 204 }]);
    await client.follow({ _links: { 'accept invitation': { href: 'invitations/i1/accept' } } }, 'accept invitation', { method: 'PATCH' });
    await client.follow({ _links: { 'accept invitation': { href: '/api/invitations/i2' } } }, 'accept invitation', { method: 'PATCH' });
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['PATCH', `${BASE}/invitations/i1/accept`],
      ['PATCH', 'http://api.test/api/invitations/i2'],
    ]);
  });

  it('uses the first link when the relation holds an array', async () => {
    const { client, calls } = setup([{ body: workspace }]);
    await client.follow({ _links: { self: [{ href: 'workspaces/a' }, { href: 'workspaces/b' }] } }, 'self', { schema: workspaceSchema });
    expect(calls[0]!.url).toBe(`${BASE}/workspaces/a`);
  });

  it('sends method, body and query', async () => {
    const { client, calls } = setup([{ body: { description: 'x', alias: 'a' } }]);
    const schema = z.looseObject({ alias: z.string() });
    const answer = await client.follow({ _links: { questions: { href: 'workspaces/w1/questions' } } }, 'questions', {
      method: 'POST',
      body: { question: 'why?' },
      query: { lang: 'en' },
      schema,
    });
    expect(answer?.alias).toBe('a');
    expect(calls[0]).toMatchObject({ method: 'POST', url: `${BASE}/workspaces/w1/questions?lang=en`, body: { question: 'why?' } });
  });

  it('fails with a missing-link error naming the relation, without a request', async () => {
    const { client, calls } = setup([{ body: workspace }]);
    expect(await failureOf(client.follow({ _links: {} }, 'update delete workspace', { schema: workspaceSchema }))).toEqual({
      kind: 'missingLink',
      rel: 'update delete workspace',
    });
    expect(await failureOf(client.follow(undefined, 'self', { schema: workspaceSchema }))).toEqual({ kind: 'missingLink', rel: 'self' });
    expect(calls).toHaveLength(0);
  });

  it('never sends the bearer token to another origin', async () => {
    const { client, calls } = setup([{ status: 204 }]);
    await client.follow({ _links: { elsewhere: { href: 'https://evil.example/steal' } } }, 'elsewhere', { method: 'POST' });
    expect(calls[0]!.url).toBe('https://evil.example/steal');
    expect(calls[0]!.headers.has('authorization')).toBe(false);
  });

  it('with a same-origin base URL, root-relative links keep the token', async () => {
    const { client, calls } = setup([{ body: workspace }], { baseURL: '/api' });
    await client.follow({ _links: { self: { href: '/api/workspaces/w1' } } }, 'self', { schema: workspaceSchema });
    expect(calls[0]!.url).toBe('/api/workspaces/w1');
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer token-1');
  });
});
