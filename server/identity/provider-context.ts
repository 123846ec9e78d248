import providerContext from 'oidc-provider/lib/helpers/als.js';

/**
 * oidc-provider keeps each request's context in an AsyncLocalStorage. On Node 20 the first `run` of
 * any such storage turns on async_hooks' promise hooks for the whole process, and they stay on: from
 * the first sign-in on, every promise of every API request paid for them (12–16 % more server CPU
 * per request on a one-query route). Once no identity request is in flight the storage is turned
 * off, which turns the hooks off too; the provider's next request turns them on for its own run.
 * A provider request that is over has no continuation left that reads its context: koa answers
 * after the provider's middleware has finished.
 */
let inFlight = 0;

export async function withProviderContext<T>(work: () => Promise<T>): Promise<T> {
  inFlight += 1;
  try {
    return await work();
  } finally {
    inFlight -= 1;
    if (inFlight === 0) providerContext.disable();
  }
}

/** The storage itself, for the test that checks it is the provider's own. */
export { providerContext };
