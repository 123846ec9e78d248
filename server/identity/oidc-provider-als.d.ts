// The AsyncLocalStorage oidc-provider keeps each request's context in (server/identity/provider-context.ts).
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';
  const als: AsyncLocalStorage<unknown>;
  export default als;
}
