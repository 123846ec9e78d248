// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../api/client';
import { failureText } from '../../machines/failureText';
import { RuntimeContext, type Runtime } from '../runtime';
import { useMutation } from './useMutation';
import { useQuery, type Load } from './useQuery';

// The hooks never touch the client themselves: the loads under test receive it, so a bare object
// stands in for it and each load is a promise the test settles by hand.

const client = {} as ApiClient;
const runtime = { client, config: {}, reporter: { report: () => undefined } } as unknown as Runtime;
const wrapper = ({ children }: { children: ReactNode }) => <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;

type Pending<T> = { key: unknown; signal: AbortSignal; resolve: (value: T) => void; reject: (failure: unknown) => void };

/** Loads that wait for the test: each call is recorded with its key and abort signal. */
function controlled<T>() {
  const calls: Pending<T>[] = [];
  const loadFor =
    (key: unknown): Load<T> =>
    (given, signal) => {
      expect(given).toBe(client);
      return new Promise<T>((resolve, reject) => calls.push({ key, signal, resolve, reject }));
    };
  return { calls, loadFor };
}

afterEach(cleanup);

describe('useQuery', () => {
  it('loads on mount, then is ready with the data', async () => {
    const { calls, loadFor } = controlled<string>();
    const { result } = renderHook(() => useQuery(loadFor('a'), ['a']), { wrapper });
    expect(result.current.state).toEqual({ status: 'loading' });
    expect(calls).toHaveLength(1);
    act(() => calls[0]!.resolve('A'));
    await waitFor(() => expect(result.current.state).toEqual({ status: 'ready', data: 'A' }));
    expect(result.current.data).toBe('A');
  });

  it('stays idle and calls nothing without a load (a link not offered)', () => {
    const { calls } = controlled<string>();
    const { result } = renderHook(() => useQuery<string>(null, ['x']), { wrapper });
    expect(result.current.state).toEqual({ status: 'idle' });
    expect(calls).toHaveLength(0);
  });

  it("cancels the previous key's load; its late answer never shows, and its data is dropped", async () => {
    const { calls, loadFor } = controlled<string>();
    const { result, rerender } = renderHook(({ key }) => useQuery(loadFor(key), [key]), { wrapper, initialProps: { key: 'a' } });
    act(() => calls[0]!.resolve('A'));
    await waitFor(() => expect(result.current.data).toBe('A'));
    rerender({ key: 'b' });
    expect(result.current.data).toBeUndefined();
    rerender({ key: 'c' });
    expect(calls.map((c) => c.key)).toEqual(['a', 'b', 'c']);
    expect(calls[1]!.signal.aborted).toBe(true);
    act(() => calls[1]!.resolve('B, too late'));
    act(() => calls[2]!.resolve('C'));
    await waitFor(() => expect(result.current.state).toEqual({ status: 'ready', data: 'C' }));
  });

  it('keeps the previous data while the next key loads when asked to (a list being searched)', async () => {
    const { calls, loadFor } = controlled<string>();
    const { result, rerender } = renderHook(({ key }) => useQuery(loadFor(key), [key], { keepPrevious: true }), { wrapper, initialProps: { key: 'a' } });
    act(() => calls[0]!.resolve('A'));
    await waitFor(() => expect(result.current.data).toBe('A'));
    rerender({ key: 'b' });
    expect(result.current.state.status).toBe('loading');
    expect(result.current.data).toBe('A');
  });

  it("fails in the error catalogue's words, and retry loads again", async () => {
    const { calls, loadFor } = controlled<string>();
    const { result } = renderHook(() => useQuery(loadFor('a'), ['a']), { wrapper });
    const failure = new Error('socket hang up');
    act(() => calls[0]!.reject(failure));
    await waitFor(() => expect(result.current.state.status).toBe('failed'));
    expect(result.current.state).toEqual({ status: 'failed', message: failureText(failure), failure });
    act(() => result.current.retry());
    expect(calls).toHaveLength(2);
    act(() => calls[1]!.resolve('A'));
    await waitFor(() => expect(result.current.state).toEqual({ status: 'ready', data: 'A' }));
  });

  it('follow replaces the data; a failed follow keeps it and says why', async () => {
    const { calls, loadFor } = controlled<string>();
    const { result } = renderHook(() => useQuery(loadFor('page 1'), ['list']), { wrapper });
    act(() => calls[0]!.resolve('page 1'));
    await waitFor(() => expect(result.current.data).toBe('page 1'));

    let followed: Promise<boolean> | undefined;
    act(() => {
      followed = result.current.follow(loadFor('page 2'));
    });
    expect(result.current.following).toBe(true);
    expect(result.current.data).toBe('page 1');
    act(() => calls[1]!.resolve('page 2'));
    await expect(followed).resolves.toBe(true);
    await waitFor(() => expect(result.current.data).toBe('page 2'));
    expect(result.current.following).toBe(false);

    act(() => {
      followed = result.current.follow(loadFor('page 3'));
    });
    act(() => calls[2]!.reject(new Error('gone')));
    await expect(followed).resolves.toBe(false);
    await waitFor(() => expect(result.current.state.status).toBe('failed'));
    expect(result.current.data).toBe('page 2');
  });

  it('aborts a follow when the view goes', () => {
    const { calls, loadFor } = controlled<string>();
    const { result, unmount } = renderHook(() => useQuery(loadFor('first'), ['k']), { wrapper });
    act(() => void result.current.follow(loadFor('next')));
    unmount();
    expect(calls.every((call) => call.signal.aborted)).toBe(true);
  });
});

describe('useMutation', () => {
  it('is pending while the change runs and resolves with its value', async () => {
    let finish: (value: number) => void = () => undefined;
    const { result } = renderHook(() => useMutation((given: ApiClient, n: number) => new Promise<number>((resolve) => (finish = (v) => resolve(v + n)))), { wrapper });
    let outcome: Promise<unknown> | undefined;
    act(() => {
      outcome = result.current.run(1);
    });
    expect(result.current.pending).toBe(true);
    act(() => finish(41));
    await expect(outcome).resolves.toEqual({ ok: true, value: 42 });
    await waitFor(() => expect(result.current.pending).toBe(false));
    expect(result.current.error).toBeNull();
  });

  it('never rejects: a failure is an outcome and an error, cleared on the next run', async () => {
    let attempt = 0;
    const { result } = renderHook(() => useMutation(async () => (attempt++ === 0 ? Promise.reject(new Error('boom')) : 'done')), { wrapper });
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.run(undefined);
    });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/\S/) });
    expect(result.current.error).toMatch(/\S/);
    await act(async () => {
      outcome = await result.current.run(undefined);
    });
    expect(outcome).toEqual({ ok: true, value: 'done' });
    expect(result.current.error).toBeNull();
  });
});
