import { fromPromise } from 'xstate';

/** A promise the test settles when it chooses: an actor's answer held back while the test looks at the machine. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Waits until the promise callbacks queued so far have run: a settled answer has reached the machine. */
export const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Actors the test answers, for `machine.provide({ actors })`: `held(id, describe)` records each call
 * in `calls` as `<id> <describe(input)>`, and its answer waits in `pending[id]` (oldest first) until
 * the test settles it, directly or with `answer`/`fail` (the index-th call of `id`), which also wait
 * for the machine to take it.
 */
export function heldActors() {
  const calls: string[] = [];
  const pending: Record<string, ReturnType<typeof deferred<unknown>>[]> = {};
  const held = <I, O>(id: string, describe: (input: I) => string) =>
    fromPromise<O, I>(({ input }) => {
      calls.push(`${id} ${describe(input)}`);
      const next = deferred<unknown>();
      (pending[id] ??= []).push(next);
      return next.promise as Promise<O>;
    });
  const answer = async (id: string, index: number, value: unknown) => {
    pending[id]![index]!.resolve(value);
    await settled();
  };
  const fail = async (id: string, index: number, error: unknown) => {
    pending[id]![index]!.reject(error);
    await settled();
  };
  return { calls, pending, held, answer, fail };
}
