import type { FastifyReply } from 'fastify';

/** Aborted when the client goes away before its answer is complete: a query for it is then cancelled. */
export function untilClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
