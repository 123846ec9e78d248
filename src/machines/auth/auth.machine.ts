import { and, assign, setup } from 'xstate';
import type { ApiError } from '../../api/errors';
import type { EmailLink, EmailLinkNotice } from '../../domain/emailLinks';
import { MESSAGES } from '../../domain/errors';
import type { Profile, Root, Workspace } from '../../domain/resources';
import { apiErrorOf, shellErrorMessage } from '../apiError';
import { authFailureMessage, failureIsStaleAnswer, failureIsUnverifiedEmail, failureNeedsSignIn, isEmailUnverified, isSignedIn, returnTarget, type AuthFailure, type AuthUser } from './auth.rules';
import { notProvided, notProvidedActor } from '../notProvided';

// The shell states of spec 000 section 2.1. The auth bridge (src/ui/auth) turns the identity SDK's
// state into auth.* events; the composition root provides the bootstrap calls and the navigation.

export type AuthInput = {
  /** The URL the visitor asked for, restored after sign-in. */
  readonly returnTo: string;
  /** The `email` query parameter, passed to the provider as a login hint. */
  readonly loginHint?: string | undefined;
  /**
   * The mailed link the visitor arrived by (verification, reset, sign-in link, invitation): a
   * signed-out visitor goes straight to the provider with it, which says what the link did.
   */
  readonly emailLink?: EmailLink | undefined;
  /**
   * The URL carried the provider's answer (`code` or `error`, with `state`); `restartedBefore`: this
   * tab already began a fresh sign-in for an answer it could not use, a moment ago.
   */
  readonly callback?: { readonly restartedBefore: boolean } | undefined;
};

export type BootstrapInput = { readonly user: AuthUser | undefined };

export type BootstrapOutput = {
  readonly profile: Profile;
  readonly root: Root;
  readonly workspaces: readonly Workspace[];
  /** The workspace of an invitation accepted during sign-in: where the user lands. */
  readonly targetWorkspaceId?: string | undefined;
};

export type AuthEvent =
  | { readonly type: 'auth.loaded'; readonly isAuthenticated: boolean; readonly user?: AuthUser | undefined }
  | { readonly type: 'auth.failed'; readonly error: AuthFailure }
  | { readonly type: 'user.login' }
  | { readonly type: 'user.signup' }
  | { readonly type: 'user.retry' }
  | { readonly type: 'user.logout' }
  | { readonly type: 'profile.updated'; readonly profile: Profile }
  | { readonly type: 'workspaces.reload' };

export type AuthContext = {
  readonly returnTo: string;
  readonly loginHint: string | undefined;
  readonly user: AuthUser | undefined;
  readonly profile: Profile | undefined;
  readonly root: Root | undefined;
  readonly workspaces: readonly Workspace[];
  readonly targetWorkspaceId: string | undefined;
  /** The text of the error view ('Uh oh!' + this + RETRY and LOGOUT). */
  readonly errorMessage: string | undefined;
  /** Until it has been followed once (see AuthInput). */
  readonly emailLink: EmailLink | undefined;
  readonly callback: { readonly restartedBefore: boolean } | undefined;
};

export type LoginRedirect = {
  readonly returnTo: string;
  readonly loginHint: string | undefined;
  readonly screen: 'login' | 'signup';
  /** What the mailed link did, for the provider to say; and the invitation it carried. */
  readonly notice?: EmailLinkNotice | undefined;
  readonly invitation?: string | undefined;
};

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    bootstrap: notProvidedActor<BootstrapOutput, BootstrapInput>('bootstrap'),
    reloadWorkspaces: notProvidedActor<readonly Workspace[]>('reloadWorkspaces'),
  },
  actions: {
    redirectToLogin: (_, _params: LoginRedirect) => notProvided('redirectToLogin')(),
    /**
     * The provider's answer could not be used (its login transaction is in another tab's storage,
     * or was used already): the address loses the answer, the tab notes that it restarted, and a
     * fresh sign-in begins.
     */
    restartSignIn: (_, _params: LoginRedirect) => notProvided('restartSignIn')(),
    /** The address loses the provider's answer (`code`, `state`, `error`): never kept, never shown. */
    clearCallbackUrl: (_, _params: { target: string }) => notProvided('clearCallbackUrl')(),
    forgetEmailLink: assign({ emailLink: undefined }),
    goNotVerified: (_, _params: { message: string }) => notProvided('goNotVerified')(),
    logout: notProvided('logout'),
    storeUser: assign({
      user: ({ event }) => (event.type === 'auth.loaded' ? event.user : undefined),
    }),
    storeProfile: assign({
      profile: ({ context, event }) => (event.type === 'profile.updated' ? event.profile : context.profile),
    }),
    storeAuthFailure: assign({
      errorMessage: ({ event }) => (event.type === 'auth.failed' ? authFailureMessage(event.error) : MESSAGES.unexpected),
    }),
    storeApiError: assign((_, params: { error: ApiError }) => ({ errorMessage: shellErrorMessage(params.error) })),
    clearError: assign({ errorMessage: undefined }),
  },
  guards: {
    signedOut: ({ event }) => event.type === 'auth.loaded' && !isSignedIn(event.isAuthenticated, event.user),
    emailUnverified: ({ event }) => event.type === 'auth.loaded' && event.user !== undefined && isEmailUnverified(event.user),
    failureNeedsSignIn: ({ event }) => event.type === 'auth.failed' && failureNeedsSignIn(event.error),
    failureIsUnverifiedEmail: ({ event }) => event.type === 'auth.failed' && failureIsUnverifiedEmail(event.error),
    unauthorized: (_, params: { error: ApiError }) => params.error.kind === 'unauthorized',
    staleAnswer: ({ context, event }) => event.type === 'auth.failed' && context.callback !== undefined && failureIsStaleAnswer(event.error),
    restartedBefore: ({ context }) => context.callback?.restartedBefore === true,
    arrivedByEmailLink: ({ context }) => context.emailLink !== undefined,
    hasUser: ({ context }) => context.user !== undefined,
  },
}).createMachine({
  id: 'auth',
  initial: 'loading',
  context: ({ input }) => ({
    returnTo: returnTarget(input.returnTo, input.emailLink !== undefined),
    loginHint: input.loginHint,
    user: undefined,
    profile: undefined,
    root: undefined,
    workspaces: [],
    targetWorkspaceId: undefined,
    errorMessage: undefined,
    emailLink: input.emailLink,
    callback: input.callback,
  }),
  states: {
    loading: {
      on: {
        'auth.loaded': [
          { guard: 'signedOut', target: 'unauthenticated' },
          { guard: 'emailUnverified', target: 'unverified', actions: 'storeUser' },
          { target: 'loadingProfile', actions: 'storeUser' },
        ],
        'auth.failed': [
          { guard: 'failureNeedsSignIn', target: 'unauthenticated' },
          { guard: 'failureIsUnverifiedEmail', target: 'unverified' },
          // An answer this tab cannot use ('Invalid state'): never an error view with ?code in the
          // address. Once, a fresh sign-in; should that come back unusable too, the login view.
          { guard: and(['staleAnswer', 'restartedBefore']), target: 'unauthenticated.idle', actions: { type: 'clearCallbackUrl', params: ({ context }) => ({ target: context.returnTo }) } },
          { guard: 'staleAnswer', target: 'unauthenticated.restartingSignIn' },
          { target: 'apiError', actions: 'storeAuthFailure' },
        ],
      },
    },
    // The login view: the visitor presses Sign in (or Create an account) and goes to the provider,
    // keeping the target URL and the email login hint. A visitor who came by a mailed link goes
    // there at once, once; the view stays behind, so coming back to it is not a loop.
    unauthenticated: {
      initial: 'deciding',
      on: {
        'user.login': { actions: { type: 'redirectToLogin', params: ({ context }) => ({ returnTo: context.returnTo, loginHint: context.loginHint, screen: 'login' as const }) } },
        'user.signup': { actions: { type: 'redirectToLogin', params: ({ context }) => ({ returnTo: context.returnTo, loginHint: context.loginHint, screen: 'signup' as const }) } },
      },
      states: {
        deciding: {
          always: [{ guard: 'arrivedByEmailLink', target: 'followingLink' }, { target: 'idle' }],
        },
        followingLink: {
          entry: [
            {
              type: 'redirectToLogin',
              params: ({ context }) => ({
                returnTo: context.returnTo,
                loginHint: context.loginHint,
                screen: 'login' as const,
                notice: context.emailLink?.notice,
                invitation: context.emailLink?.invitation,
              }),
            },
            'forgetEmailLink',
          ],
        },
        restartingSignIn: {
          entry: { type: 'restartSignIn', params: ({ context }) => ({ returnTo: context.returnTo, loginHint: context.loginHint, screen: 'login' as const }) },
        },
        idle: {},
      },
    },
    unverified: {
      entry: { type: 'goNotVerified', params: { message: MESSAGES.verifyEmail } },
      on: { 'user.logout': 'loggingOut' },
    },
    loadingProfile: {
      entry: 'clearError',
      invoke: {
        id: 'bootstrap',
        src: 'bootstrap',
        input: ({ context }) => ({ user: context.user }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            profile: event.output.profile,
            root: event.output.root,
            workspaces: event.output.workspaces,
            targetWorkspaceId: event.output.targetWorkspaceId,
          })),
        },
        onError: [
          { guard: { type: 'unauthorized', params: ({ event }) => ({ error: apiErrorOf(event.error) }) }, target: 'unauthenticated' },
          { target: 'apiError', actions: { type: 'storeApiError', params: ({ event }) => ({ error: apiErrorOf(event.error) }) } },
        ],
      },
    },
    ready: {
      initial: 'idle',
      on: {
        'user.logout': 'loggingOut',
        'profile.updated': { actions: 'storeProfile' },
      },
      states: {
        idle: {
          on: { 'workspaces.reload': 'reloading' },
        },
        reloading: {
          invoke: {
            id: 'reloadWorkspaces',
            src: 'reloadWorkspaces',
            onDone: { target: 'idle', actions: assign({ workspaces: ({ event }) => event.output }) },
            onError: [
              { guard: { type: 'unauthorized', params: ({ event }) => ({ error: apiErrorOf(event.error) }) }, target: '#auth.unauthenticated' },
              { target: '#auth.apiError', actions: { type: 'storeApiError', params: ({ event }) => ({ error: apiErrorOf(event.error) }) } },
            ],
          },
        },
      },
    },
    apiError: {
      on: {
        'user.retry': [{ guard: 'hasUser', target: 'loadingProfile' }, { target: 'unauthenticated' }],
        'user.logout': 'loggingOut',
      },
    },
    loggingOut: {
      entry: 'logout',
    },
  },
});

export type AuthMachine = typeof authMachine;
