import { fromPromise } from 'xstate';
import { requestPasswordReset } from '../../api/changePassword';
import type { RequestResetInput } from './changePassword.machine';

/** The identity provider's side of the request: its domain, the SPA's client id, the database connection. */
type PasswordResetConfig = {
  readonly authDomain: string;
  readonly clientId: string;
  readonly connection: string;
};

/**
 * `changePasswordMachine.provide({ actors: changePasswordActors(fetch, config) })`. The call goes to
 * the identity provider, not the API, so it takes `fetch` rather than the API client.
 */
export function changePasswordActors(fetchFn: typeof fetch, config: PasswordResetConfig) {
  return {
    requestReset: fromPromise<string, RequestResetInput>(({ input, signal }) =>
      requestPasswordReset(fetchFn, config.authDomain, { client_id: config.clientId, email: input.email, connection: config.connection }, signal),
    ),
  };
}
