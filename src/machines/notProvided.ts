import { fromPromise } from 'xstate';

// Machines declare their effects with defaults that fail loudly; the real ones are supplied with
// .provide() at the composition root (or scripted in tests). One wording for every machine.

/** An action (or any default function) that throws 'NAME not provided'. */
export function notProvided(name: string): () => never {
  return () => {
    throw new Error(`${name} not provided`);
  };
}

/** A promise actor that rejects with 'NAME not provided'. */
export function notProvidedActor<TOutput, TInput = unknown>(name: string) {
  return fromPromise<TOutput, TInput>(() => Promise.reject(new Error(`${name} not provided`)));
}
