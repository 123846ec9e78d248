import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { datasetMessageSchema, datasetMessageWriteSchema, type Wire } from '../../src/domain/resources';
import { datasetMessageLinks } from '../policy/links';
import { datasetMessageBody } from '../representations/datasetMessage';
import { newId } from '../repositories/ids';
import { callerName, type RouteContext } from './context';
import { sendDatasetMessage } from '../services/datasetMessages';
import { defineRoute } from './define';

// Dataset messages (the Matatika reference's Dataset Message): a member writes a note about a
// dataset to another member of its workspace, who is told as a DATASET_MESSAGE notification with
// the message's own id. Its sender may change it (PUT again), which tells the recipient afresh.

const OBJECT = 'datasetMessage';

export function datasetMessageRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** Initialise ('new message'): an id and the link whose PUT sends it; nothing is stored yet. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/datasets/:id/messages',
    guard: { resource: 'dataset', rel: REL.newMessage },
    response: datasetMessageSchema,
    handler: ({ request, access }): Wire<typeof datasetMessageSchema> => {
      const id = newId();
      const links = datasetMessageLinks(ctx.h, request.caller, { id, dataset_id: access.dataset.id, sender_id: request.caller.profileId });
      return { id, datasetId: access.dataset.id, recipientId: null, message: null, _links: links };
    },
  });

  /** Create (201) or, by its sender, update (200): {recipientId, message}; the recipient must be a member. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datasets/:id/messages/:messageId',
    guard: { resource: 'dataset', rel: REL.newMessage },
    response: datasetMessageSchema,
    body: datasetMessageWriteSchema,
    objectName: OBJECT,
    handler: async ({ request, reply, access, body, param }) => {
      const { caller } = request;
      const sender = { profileId: caller.profileId, name: callerName(caller) };
      const saved = await sendDatasetMessage(ctx.db, { id: param('messageId'), workspaceId: access.workspace.id, dataset: access.dataset, sender, recipientId: body.recipientId, message: body.message });
      return reply.status(saved.created ? 201 : 200).send(datasetMessageBody(ctx, caller, saved.row));
    },
  });
}
