import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../../api/client';
import { failureText } from '../../machines/failureText';
import { useRuntime } from '../runtime';

// The one way a view reads something that is not a machine's: a load from the API client, started
// when its key changes, cancelled when the key changes again or the view goes, and failing through
// the error catalogue (failureText). Views never hold an AbortController or call src/api themselves.

export type Load<T> = (client: ApiClient, signal: AbortSignal) => Promise<T>;

export type QueryState<T> =
  | { readonly status: 'idle' }
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly data: T }
  | { readonly status: 'failed'; readonly message: string; readonly failure: unknown };

export interface Query<T> {
  readonly state: QueryState<T>;
  /** the data of the last successful load (kept while another page loads) */
  readonly data: T | undefined;
  /** a follow-up load (another page of the same list) is under way */
  readonly following: boolean;
  /** loads again with the same key */
  retry(): void;
  /**
   * Replaces the data with what `load` returns (another page, the list after a change), keeping
   * the current data while it runs; a failure leaves the data and sets the state to 'failed'.
   * Resolves true when it succeeded.
   */
  follow(load: Load<T>): Promise<boolean>;
}

/**
 * Runs `load` whenever `key` changes (compared item by item, like an effect's dependencies).
 * A null `load` means there is nothing to read (a link not offered): the state stays 'idle'.
 * `keepPrevious` keeps `data` from the previous key while the next one loads.
 */
export function useQuery<T>(load: Load<T> | null, key: readonly unknown[], options: { keepPrevious?: boolean } = {}): Query<T> {
  const { client } = useRuntime();
  const [state, setState] = useState<QueryState<T>>(load === null ? { status: 'idle' } : { status: 'loading' });
  const [data, setData] = useState<T | undefined>(undefined);
  const [following, setFollowing] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  const followController = useRef<AbortController | null>(null);
  const enabled = load !== null;
  // What another key read is not this key's data: it is dropped when the key changes (not on
  // retry), unless the view shows the previous answer while the next loads (a list being searched).
  const lastKey = useRef(key);
  if (lastKey.current.length !== key.length || lastKey.current.some((item, index) => !Object.is(item, key[index]))) {
    lastKey.current = key;
    if (data !== undefined && options.keepPrevious !== true) setData(undefined);
  }

  useEffect(() => {
    const current = latest.current;
    followController.current?.abort();
    setFollowing(false);
    if (current === null) {
      setState({ status: 'idle' });
      setData(undefined);
      return undefined;
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    current(client, controller.signal).then(
      (loaded) => {
        if (controller.signal.aborted) return;
        setData(loaded);
        setState({ status: 'ready', data: loaded });
      },
      (failure: unknown) => controller.signal.aborted || setState({ status: 'failed', message: failureText(failure), failure }),
    );
    return () => controller.abort();
    // `load` is rebuilt on every render; the key says when it reads something else.
  }, [client, enabled, attempt, ...key]);

  useEffect(() => () => followController.current?.abort(), []);

  const follow = useCallback(
    (next: Load<T>): Promise<boolean> => {
      followController.current?.abort();
      const controller = new AbortController();
      followController.current = controller;
      setFollowing(true);
      return next(client, controller.signal).then(
        (loaded) => {
          if (controller.signal.aborted) return false;
          setFollowing(false);
          setData(loaded);
          setState({ status: 'ready', data: loaded });
          return true;
        },
        (failure: unknown) => {
          if (controller.signal.aborted) return false;
          setFollowing(false);
          setState({ status: 'failed', message: failureText(failure), failure });
          return false;
        },
      );
    },
    [client],
  );
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, data, following, retry, follow };
}
