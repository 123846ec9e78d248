import { vi } from 'vitest';
import { createActor, type AnyActorLogic } from 'xstate';
import { createApiClient, type ApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';

/**
 * Whether each actor cancels its request when it is stopped (a page left, a dialog closed): every
 * actor named in `inputs` is started alone, with its input, against a fetch that never answers,
 * and stopped once its first request is out. Returns, by actor, whether that request's signal was
 * aborted (false when it made none). A `{ signal }` left out of an actor's call changes nothing a
 * replay can see; this is what notices it.
 */
export async function requestsCancelledOnStop(
  actorsOf: (client: ApiClient) => Readonly<Record<string, AnyActorLogic>>,
  inputs: Readonly<Record<string, unknown>>,
): Promise<Record<string, boolean>> {
  const aborted: Record<string, boolean> = {};
  for (const [key, input] of Object.entries(inputs)) {
    const fake = fakeFetch({ hang: true });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const logic = actorsOf(client)[key];
    if (logic === undefined) throw new Error(`requestsCancelledOnStop: no actor '${key}'`);
    const actor = createActor(logic, { input });
    actor.subscribe({ error: () => {} });
    actor.start();
    await vi
      .waitFor(
        () => {
          if (fake.calls.length === 0) throw new Error('no request yet');
        },
        { timeout: 1_000 },
      )
      .catch(() => {});
    actor.stop();
    aborted[key] = fake.calls[0]?.signal?.aborted === true;
  }
  return aborted;
}
