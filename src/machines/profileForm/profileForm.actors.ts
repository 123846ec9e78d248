import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { saveProfile } from '../../api/profiles';
import type { Profile } from '../../domain/resources';
import type { SaveProfileInput } from './profileForm.machine';

/** `profileFormMachine.provide({ actors: profileFormActors(client), actions: { profileSaved } })`. */
export function profileFormActors(client: ApiClient) {
  return {
    saveProfile: fromPromise<Profile, SaveProfileInput>(({ input, signal }) => saveProfile(client, input, { signal })),
  };
}
