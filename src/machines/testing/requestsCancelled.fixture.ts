import { vi } from 'vitest';
import { createActor, type AnyActorLogic } from 'xstate';
import { createApiClient, type ApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';

/**
 * Whether each actor cancels its request when it is stopped (a page left, a dialog closed): every
 * actor named in `inputs` is started alone, with its input, against a fetch that never answers,
 * and stopped once its requests are out. Returns, by actor, whether every request it made was
 * aborted (false when it made none; an actor that asks two things at once makes both). A
 * `{ signal }` left out of an actor's call changes nothing a replay can see; this notices it.
 */
export async function requestsCancelledOnStop(
  actorsOf: (client: ApiClient) => Readonly<Record<string, AnyActorLogic>>,
  inputs: Readonly<Record<string, unknown>>,
): Promise<Record<string, boolean>> {
  const aborted: Record<string, boolean> = {};
  for (const [key, input] of Object.entries(inputs)) {
    const fake = fakeFetch({ hang: true }, { hang: true }, { hang: true });
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
    // requests sent side by side leave within the same turn or the next
    await new Promise((resolve) => setImmediate(resolve));
    actor.stop();
    aborted[key] = fake.calls.length > 0 && fake.calls.every((call) => call.signal?.aborted === true);
  }
  return aborted;
}
