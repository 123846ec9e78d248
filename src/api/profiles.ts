import { encodeSegment } from '../domain/paths';
import { profileSchema, type Profile } from '../domain/resources';
import { required, type ApiClient, type RequestOptions } from './client';

type ProfileFields = { readonly id: string; readonly name: string; readonly email: string };

const profilePath = (id: string): string => `/profiles/${encodeSegment(id)}`;

/** POST /profiles/{userId}/login: creates the profile on first sign-in and returns it. */
export async function login(client: ApiClient, user: ProfileFields, options?: RequestOptions): Promise<Profile> {
  const body = { id: user.id, name: user.name, email: user.email };
  return required(await client.post(`${profilePath(user.id)}/login`, body, profileSchema, options), 'login');
}

/** PUT /profiles/{id}: the answer replaces the local profile. */
export async function saveProfile(client: ApiClient, profile: ProfileFields, options?: RequestOptions): Promise<Profile> {
  const body = { id: profile.id, name: profile.name, email: profile.email };
  return required(await client.put(profilePath(profile.id), body, profileSchema, options), 'profile save');
}

/** PATCH /profiles/{id} {defaultWorkspace:{id}}; the app reloads to '/' afterwards, so the answer is not needed. */
export function setDefaultWorkspace(client: ApiClient, profileId: string, workspaceId: string, options?: RequestOptions): Promise<void> {
  return client.patch(profilePath(profileId), { defaultWorkspace: { id: workspaceId } }, undefined, options);
}
