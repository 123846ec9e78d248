import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { questionAnswerSchema } from '../../src/domain/resources';
import { DEMO } from '../../server/seed';
import { expectError, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
let questionsHref: string;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  const workspace = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
  questionsHref = linkOf(workspace.body, REL.questions);
});
afterAll(async () => {
  await world?.close();
});

const ask = (question: unknown) => world.member.api.call('POST', questionsHref, { question });

describe('POST the questions link', () => {
  it.each([
    ['What was our monthly revenue?', 'sales/monthly-revenue'],
    ['Who are our biggest customers?', 'top-customers'],
    ['How long does it take to ship orders?', 'operations/fulfilment-time'],
    ['where do visitors to the website come from', 'marketing/website-sessions'],
    ['how many urgent tikcets are open', 'support-tickets'],
  ])('answers %j with the matching dataset', async (question, alias) => {
    const answer = await ask(question);
    expect(answer.status).toBe(200);
    expect(questionAnswerSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({ alias, id: expect.any(String), description: expect.any(String) });
  });

  it.each(['zzzz qqqq', 'What is the weather in Paris?', 'the of and'])('answers 204 when nothing matches %j', async (question) => {
    const answer = await ask(question);
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
  });

  it("answers only from the workspace's own datasets", async () => {
    const answer = await world.owner.api.call('POST', `/api/workspaces/${DEMO.sandboxWorkspaceId}/questions`, { question: 'Which checkout variant won?' });
    expect(answer.body.alias).toBe('ab-test-results');
    const demo = await ask('Which checkout variant won?');
    expect(demo.status).toBe(204);
  });

  it('rejects an empty question with a field error, and malformed JSON', async () => {
    expectError(await ask('   '), 400, { question: /mandatory/ });
    expectError(await world.member.api.call('POST', questionsHref, {}), 400, { question: /mandatory/ });
    expectError(await world.member.api.call('POST', questionsHref, '{"question": '), 400);
  });

  it('answers 404 outside the workspace (as for none), 404 for none, 401 without a token', async () => {
    expectError(await world.outsider.api.call('POST', questionsHref, { question: 'revenue' }), 404);
    expectError(await world.member.api.call('POST', `/api/workspaces/${DEMO.sandboxWorkspaceId}/questions`, { question: 'revenue' }), 404);
    expectError(await world.member.api.call('POST', `/api/workspaces/${crypto.randomUUID()}/questions`, { question: 'revenue' }), 404);
    expectError(await world.anonymous.call('POST', questionsHref, { question: 'revenue' }), 401);
  });
});
