import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { workspaceResourceSchema, workspaceResourcesCollectionSchema } from '../../src/domain/resources';
import { attachmentDisposition, recordedContentType, servedContentType } from '../../src/domain/workspaceResources';
import { badRequest, HttpError, notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { parseBody } from '../http/validation';
import { resourceLinks } from '../policy/links';
import { bytesOf, deleteResource, listResources, RESOURCE_SORT_FIELDS, resourceChunks, writeResource, type ResourceBytes, type ResourceMeta } from '../repositories/workspaceResources';
import { spoolUpload, UploadTooLarge } from '../http/uploadSpool';
import { publishResources } from '../services/publishResources';
import { requestUrl, type RouteContext } from './context';
import { workspaceResourceBody } from '../representations/workspaceResource';
import { defineRoute } from './define';

// Workspace resources (spec 002 'resources' and DownloadResource; the Matatika reference's
// resources): files a workspace keeps, by path. Every member lists and downloads them; admins
// upload (PUT, create or replace) and delete. The bytes live in the database, in chunks: an upload
// streams to a temporary file (cut off at RESOURCE_MAX_MB) and from there into the database, and a
// download streams out of it, so no process holds a file whole. A download is always an attachment
// with nosniff and an inert content type, so an uploaded page or SVG never runs here.

const OBJECT_NAME = 'resource';

/** The reference's Resource body: text content and its type. Binary files are sent as raw bytes instead. */
const resourceWriteBody = z.object({
  content: z.string({ message: 'is required' }),
  contentType: z.string().max(200, 'is too long').nullish(),
});

/** Files one POST publishes at most: enough for a project's files, few enough to check before writing. */
const PUBLISH_MAX_ITEMS = 100;

/** POST 'publish resources': the reference's Resource, several at once. */
const publishBody = z
  .array(
    z.object({
      path: z.string({ message: 'is required' }).max(1_024, 'is too long'),
      content: z.string({ message: 'is required' }),
      contentType: z.string().max(200, 'is too long').nullish(),
    }),
    { message: 'must be a list of resources' },
  )
  .min(1, 'must hold at least one resource')
  .max(PUBLISH_MAX_ITEMS, `must hold at most ${PUBLISH_MAX_ITEMS} resources`);

/** The resource's JSON view is asked for by name; anything else (`*\/*`, a browser, none) downloads its content. */
function wantsJson(accept: string | undefined): boolean {
  return (accept ?? '')
    .split(',')
    .map((part) => part.split(';'))
    .some(([type = '', ...params]) => ['application/json', 'application/hal+json'].includes(type.trim().toLowerCase()) && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)));
}

/** What an upload sent, ready to store: raw bytes (any content type but JSON), or the reference's JSON Resource. */
async function uploaded(request: FastifyRequest, reply: FastifyReply, spoolDir: string, limitBytes: number): Promise<{ content: ResourceBytes; declaredType: string | undefined; dispose: () => void }> {
  const body: unknown = request.body;
  const declared = request.headers['content-type'];
  // A browser form's envelope is not the file: stored as is, it would be a corrupt copy.
  if (/^\s*multipart\//i.test(declared ?? '')) {
    throw badRequest(`Validation failed for object='${OBJECT_NAME}'`, [{ field: 'content', objectName: OBJECT_NAME, defaultMessage: "must be the file's own bytes (a multipart form is not read)" }]);
  }
  if (body instanceof Readable) {
    const announced = Number(request.headers['content-length']);
    if (announced > limitBytes) throw tooLarge(limitBytes);
    try {
      const spooled = await spoolUpload(body, spoolDir, limitBytes);
      return { content: spooled, declaredType: declared, dispose: spooled.dispose };
    } catch (error) {
      if (!(error instanceof UploadTooLarge)) throw error;
      // the rest of the body is not read: the connection ends with the answer
      void reply.header('Connection', 'close');
      throw tooLarge(limitBytes);
    }
  }
  const parsed = parseBody(resourceWriteBody, body, OBJECT_NAME);
  const content = Buffer.from(parsed.content, 'utf8');
  if (content.length > limitBytes) throw tooLarge(limitBytes);
  return { content: bytesOf(content), declaredType: parsed.contentType ?? undefined, dispose: () => undefined };
}

const tooLarge = (limitBytes: number) => new HttpError(413, `A file may be at most ${megabytes(limitBytes)} (RESOURCE_MAX_MB)`);
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

function sendContent(reply: FastifyReply, resource: ResourceMeta, content: Readable) {
  return reply
    .header('Content-Type', servedContentType(resource.content_type))
    .header('Content-Length', String(resource.size))
    .header('Content-Disposition', attachmentDisposition(resource.path))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-store')
    .send(content);
}

export function resourceRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** A page of the workspace's resources by path (`sort=path|lastModified|created|size`). */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/resources',
    guard: { resource: 'workspace', rel: REL.resources },
    response: workspaceResourcesCollectionSchema,
    paging: { sortable: RESOURCE_SORT_FIELDS },
    objectName: 'resources',
    handler: async ({ request, access, paging }) => {
      const { items, total } = await listResources(ctx.db, access.workspace.id, paging);
      const bodies = items.map((r) => workspaceResourceBody(r, resourceLinks(ctx.h, r, access.role)));
      return pagedCollection('resources', bodies, paging, total, requestUrl(ctx, request));
    },
  });

  /**
   * 'publish resources': several of the reference's Resource in one JSON body (`[{path, content,
   * contentType}]`, at most PUBLISH_MAX_ITEMS, under the API's 1 MB body limit), each checked as
   * the PUT checks one and written all or nothing. The page of what was written, in the body's order.
   */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/resources',
    guard: { resource: 'workspace', rel: REL.publishResources },
    response: workspaceResourcesCollectionSchema,
    body: publishBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, access, body }) => {
      const written = await publishResources(
        ctx.db,
        { workspaceId: access.workspace.id, profileId: request.caller.profile ? request.caller.profileId : null, items: body },
        { fileBytes: ctx.config.env.RESOURCE_MAX_MB * 1024 * 1024, workspaceBytes: ctx.config.env.RESOURCE_WORKSPACE_MB * 1024 * 1024 },
        OBJECT_NAME,
      );
      const bodies = written.map(({ resource }) => workspaceResourceBody(resource, resourceLinks(ctx.h, resource, access.role)));
      return pagedCollection('resources', bodies, { page: 0, size: Math.max(bodies.length, 1), sort: undefined }, bodies.length, requestUrl(ctx, request));
    },
  });

  /** The resource: its content as an attachment, or with `Accept: application/json` the Resource itself. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/resources/*',
    guard: { resource: 'workspaceResource', rel: REL.self },
    response: workspaceResourceSchema,
    handler: async ({ request, reply, access }) => {
      if (wantsJson(request.headers.accept)) return workspaceResourceBody(access.resource, access.links);
      return sendContent(reply, access.resource, Readable.from(resourceChunks(ctx.db, access.resource)));
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/workspaces/:id/resources/*',
    guard: { resource: 'workspaceResource', rel: REL.deleteResource },
    handler: async ({ reply, access }) => {
      if (!(await deleteResource(ctx.db, access.workspace.id, access.resource.path))) throw notFound('Resource not found');
      return reply.status(204).send();
    },
  });

  // Uploads read any content type as a raw stream (spooled up to RESOURCE_MAX_MB: a 413 beyond it);
  // JSON is the reference's Resource body, under the API's usual 1 MB. The parsers are this context's own.
  const fileBytes = ctx.config.env.RESOURCE_MAX_MB * 1024 * 1024;
  const workspaceBytes = ctx.config.env.RESOURCE_WORKSPACE_MB * 1024 * 1024;
  const spoolDir = path.join(ctx.config.dataDir, 'uploads');
  void app.register((uploads, _options, done) => {
    const json = uploads.getDefaultJsonParser('error', 'error');
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, next) => {
      const text = body.toString();
      if (text === '') next(null, undefined);
      else void json(request, text, next);
    });
    uploads.addContentTypeParser('*', (_request, payload, next) => next(null, payload));

    /** Creates (201) or replaces (200) the resource at the path: admins only ('create resource', 'update resource'). */
    defineRoute(uploads, ctx, {
      method: 'PUT',
      url: '/workspaces/:id/resources/*',
      guard: { resource: 'workspaceResourceOrDraft', rel: [REL.createResource, REL.updateResource] },
      response: workspaceResourceSchema,
      objectName: OBJECT_NAME,
      handler: async ({ request, reply, access }) => {
        if (!access.path.ok) throw badRequest(`Validation failed for object='${OBJECT_NAME}'`, [{ field: 'path', objectName: OBJECT_NAME, defaultMessage: access.path.message }]);
        const path = access.path.path;
        const { content, declaredType, dispose } = await uploaded(request, reply, spoolDir, fileBytes);
        const written = await writeResource(
          ctx.db,
          { workspaceId: access.workspace.id, path, content, contentType: recordedContentType(declaredType, path), profileId: request.caller.profile ? request.caller.profileId : null },
          workspaceBytes,
        ).finally(dispose);
        if (!written.ok) throw new HttpError(413, `This workspace's files may hold at most ${megabytes(workspaceBytes)} together (RESOURCE_WORKSPACE_MB): delete some first`);
        return reply.status(written.created ? 201 : 200).send(workspaceResourceBody(written.resource, resourceLinks(ctx.h, written.resource, access.role)));
      },
    });
    done();
  });
}
