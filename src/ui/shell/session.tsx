import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { FeatureSwitches } from '../../domain/features';
import type { Profile, Root, Workspace } from '../../domain/resources';
import type { authMachine } from '../../machines/auth/auth.machine';

export type AuthActor = ActorRefFrom<typeof authMachine>;

/** What every signed-in view reads: the auth actor and what sign-in loaded. */
export interface Session {
  auth: AuthActor;
  profile: Profile;
  root: Root;
  workspaces: readonly Workspace[];
  targetWorkspaceId: string | undefined;
  features: FeatureSwitches;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside the ready shell');
  return value;
}
