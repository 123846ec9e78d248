import { pathTo } from '../domain/routes';
import { authActors } from '../machines/auth/auth.actors';
import { authMachine } from '../machines/auth/auth.machine';
import { rememberSignInRestart } from './auth/signInRestart';
import type { MachineEffects } from './machineEffects';

/**
 * The auth machine with its effects: the one machine the first route needs (the shell gate decides
 * between sign-in and the app with it). It is apart from the areas (./machineAreas) so that the
 * first route carries no other machine of the app (issue 21: the first route's bytes).
 */
export function provideAuthMachine(effects: MachineEffects) {
  const { client, reporter, navigate } = effects;
  return authMachine.provide({
    actors: authActors({ client, report: (error, context) => reporter.report(error, context) }),
    actions: {
      redirectToLogin: (_, redirect) => effects.login(redirect),
      restartSignIn: (_, redirect) => {
        rememberSignInRestart();
        navigate(redirect.returnTo, { replace: true });
        effects.login(redirect);
      },
      clearCallbackUrl: (_, { target }) => navigate(target, { replace: true }),
      goNotVerified: (_, { message }) => navigate(pathTo('notVerified'), { replace: true, state: { message } }),
      logout: () => navigate(pathTo('logout')),
    },
  });
}
