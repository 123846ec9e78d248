import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../../api/client';
import { failureText } from '../../machines/failureText';
import { useRuntime } from '../runtime';

// A one-off change a view asks for (delete this, add that to a list) that no machine owns: its
// pending flag and its failure in the error catalogue's words, one at a time. A result that
// arrives after the view has gone is dropped.

type Outcome<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: string };

interface Mutation<A, R> {
  readonly pending: boolean;
  /** the last attempt's failure, in the catalogue's words */
  readonly error: string | null;
  /** runs the change; never rejects: a failure sets `error` */
  run(argument: A): Promise<Outcome<R>>;
  clearError(): void;
}

export function useMutation<A, R>(change: (client: ApiClient, argument: A) => Promise<R>): Mutation<A, R> {
  const { client } = useRuntime();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const latest = useRef(change);
  latest.current = change;

  const run = useCallback(
    async (argument: A): Promise<Outcome<R>> => {
      setPending(true);
      setError(null);
      try {
        const result = await latest.current(client, argument);
        if (mounted.current) setPending(false);
        return { ok: true, value: result };
      } catch (failure: unknown) {
        const message = failureText(failure);
        if (mounted.current) {
          setPending(false);
          setError(message);
        }
        return { ok: false, error: message };
      }
    },
    [client],
  );
  const clearError = useCallback(() => setError(null), []);
  return { pending, error, run, clearError };
}
