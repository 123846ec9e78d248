import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { DEFAULT_BRANCH } from '../../src/domain/workspaceRepository';
import type { Db } from '../db/database';
import { badRequest, unauthorized } from '../http/errors';
import { isUuid } from '../repositories/ids';
import { findWorkspace } from '../repositories/workspaces';
import { pushedBranch, verifyGithubSignature } from '../security/githubWebhook';
import { requestDeployment } from '../services/deployments';

// POST /api/workspaces/{id}/deployments/github-webhook: GitHub's push webhook (content type
// application/json, secret = the workspace's deployment secret). GitHub holds no bearer token, so
// this one route sits outside the API's token check: the signature over the raw body is its
// authentication, checked before anything of the body is read. A wrong or missing signature, an
// unknown workspace and one without a secret all get the same 401, so the route is no oracle.
// A push to the workspace's branch queues a deployment (202, the job's id); GitHub's 'ping' and
// pushes to other branches are acknowledged (200) and change nothing.

export const GITHUB_WEBHOOK_PATH = '/workspaces/:id/deployments/github-webhook';

/** GitHub's push payload, as far as it is read. */
const pushSchema = z.looseObject({
  ref: z.string().max(1000),
  after: z.string().max(100).optional(),
  pusher: z.looseObject({ name: z.string().max(200).optional() }).optional(),
});

export const githubWebhookRoutes: FastifyPluginAsync<{ db: Db }> = (app, options) => {
  // the raw bytes: the signature is over them, not over a re-serialised object
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (_request, body, done) => done(null, body));

  app.post(GITHUB_WEBHOOK_PATH, async (request, reply) => {
    const { id } = request.params as { id: string };
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const workspace = isUuid(id) ? await findWorkspace(options.db, id) : undefined;
    if (!workspace || !verifyGithubSignature(workspace.deployment_secret, body, request.headers['x-hub-signature-256'])) {
      throw unauthorized('The webhook signature (X-Hub-Signature-256) does not match this workspace’s deployment secret');
    }
    const event = request.headers['x-github-event'];
    if (event === 'ping') return reply.status(200).send({ message: 'pong' });
    if (event !== 'push') return reply.status(200).send({ message: `Ignored: only push events deploy, not ${String(event)}` });
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      throw badRequest('The push payload is not JSON (set the webhook’s content type to application/json)');
    }
    const push = pushSchema.safeParse(payload);
    if (!push.success) throw badRequest('The push payload has no ref');
    const branch = pushedBranch(push.data.ref);
    const wanted = workspace.repository_branch?.trim() || DEFAULT_BRANCH;
    if (branch !== wanted) return reply.status(200).send({ message: `Ignored: the push was to ${push.data.ref}, and this workspace deploys ${wanted}` });
    const commit = push.data.after ? ` ${push.data.after.slice(0, 12)}` : '';
    const who = push.data.pusher?.name ? ` by ${push.data.pusher.name}` : '';
    const job = await requestDeployment(options.db, workspace.id, null, `GitHub push${commit}${who}`);
    return reply.status(202).send({ message: `Deployment queued for ${wanted}`, jobId: job.id });
  });
  return Promise.resolve();
};
