import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { datasetMessageSchema, datasetMessageWriteSchema, type Wire } from '../../src/domain/resources';
import { conflict, notFound } from '../http/errors';
import { rejectFieldErrors } from '../http/validation';
import { datasetMessageLinks } from '../policy/links';
import { notify } from '../notifications/notify';
import { deleteMessageNotification, saveMessage } from '../repositories/datasetMessages';
import { datasetMessageBody } from '../representations/datasetMessage';
import { isUuid, newId } from '../repositories/ids';
import { memberRole } from '../repositories/workspaces';
import { callerName, type RouteContext } from './context';
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
      const id = param('messageId');
      if (!isUuid(id)) throw notFound('Dataset message not found: not a message id');
      const { caller } = request;
      const workspace = access.workspace;
      if ((await memberRole(ctx.db, workspace.id, body.recipientId)) === undefined) {
        rejectFieldErrors(OBJECT, { recipientId: 'is not a member of this workspace' });
      }
      const dataset = access.dataset;
      const saved = await ctx.db.transaction().execute(async (trx) => {
        const result = await saveMessage(trx, { id, datasetId: dataset.id, senderId: caller.profileId, recipientId: body.recipientId, message: body.message });
        if (!result) return undefined;
        if (!result.created) await deleteMessageNotification(trx, id);
        const actorName = callerName(caller);
        await notify(trx, {
          id,
          profileIds: [body.recipientId],
          directProfileIds: [body.recipientId],
          workspaceId: workspace.id,
          type: 'DATASET_MESSAGE',
          message: `${actorName} wrote to you about ${dataset.title ?? dataset.alias ?? 'a dataset'}: ${body.message}`,
          actorName,
          datasetId: dataset.id,
        });
        return result;
      });
      if (!saved) throw conflict(`Dataset message ${id} is somebody else's`);
      return reply.status(saved.created ? 201 : 200).send(datasetMessageBody(ctx, caller, saved.row));
    },
  });
}
