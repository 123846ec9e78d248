import { createIdpUser } from '../../../server/identity/users';
import { DEMO, seedDemo } from '../../../server/seed';
import { signIn } from '../../support/auth';
import { startTestServer, type TestServer, type TestServerOptions } from '../../support/server';
import { apiClient, type ApiClient } from './http';

/**
 * A running server with the demo seed, and the people of the tests signed in through the real
 * identity provider: the owner and the member of the demo workspace, an unverified user, and an
 * outsider (verified, but in no workspace).
 */
export interface World {
  server: TestServer;
  baseUrl: string;
  owner: Person;
  member: Person;
  unverified: Person;
  outsider: Person;
  /** no Authorization header at all */
  anonymous: ApiClient;
  close(): Promise<void>;
}

export interface Person {
  subject: string;
  email: string;
  name: string;
  token: string;
  api: ApiClient;
}

const OUTSIDER = { name: 'Oscar Outsider', email: 'outsider@example.com', password: 'outsider-password' } as const;

export async function startWorld(options: TestServerOptions = {}): Promise<World> {
  const server = await startTestServer(options);
  try {
    await seedDemo(server.db, server.server.app.log);
    const outsider = await createIdpUser(server.db, { ...OUTSIDER, emailVerified: true });
    const person = async (who: { name: string; email: string; password: string }, subject?: string): Promise<Person> => {
      const tokens = await signIn(server.baseUrl, { email: who.email, password: who.password });
      const api = apiClient(server.baseUrl, tokens.accessToken);
      const id = subject ?? (await subjectOf(server, who.email));
      return { subject: id, email: who.email, name: who.name, token: tokens.accessToken, api };
    };
    const [owner, member, unverified, outsiderPerson] = await Promise.all([
      person(DEMO.owner),
      person(DEMO.member),
      person(DEMO.unverified),
      person(OUTSIDER, outsider.subject),
    ]);
    return {
      server,
      baseUrl: server.baseUrl,
      owner,
      member,
      unverified,
      outsider: outsiderPerson,
      anonymous: apiClient(server.baseUrl, undefined),
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

async function subjectOf(server: TestServer, email: string): Promise<string> {
  const row = await server.db.selectFrom('idp_users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return `auth0|${row.id}`;
}

/** The first sign-in of the SPA: POST /profiles/{id}/login. */
export async function login(person: Person): Promise<Response> {
  return person.api.raw('POST', `/api/profiles/${encodeURIComponent(person.subject)}/login`, {
    id: person.subject,
    name: person.name,
    email: person.email,
  });
}
