import type { ApiClient } from '../api/client';
import type { ErrorReporter } from '../api/reporting';
import type { Clipboard } from '../machines/apiKeys/apiKeys.actors';
import type { LoginRedirect } from '../machines/auth/auth.machine';
import type { RuntimeConfig } from './runtimeConfig';

/** Everything outside the machines that they act on: the composition root's ports. */
export interface MachineEffects {
  readonly client: ApiClient;
  readonly reporter: ErrorReporter;
  readonly config: Pick<RuntimeConfig, 'auth'>;
  /** The identity provider's sign-in (or sign-up) page. */
  readonly login: (redirect: LoginRedirect) => void;
  /** A move inside the SPA (the router). */
  readonly navigate: (to: string, options?: { readonly replace?: boolean; readonly state?: unknown }) => void;
  /** A full page load, so everything read at sign-in is read again. */
  readonly reload: (to: string) => void;
  readonly clipboard: Clipboard;
  /** fetch for calls outside the API (the identity provider's password reset). */
  readonly fetch: typeof fetch;
}
