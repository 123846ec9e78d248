import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parsePaging, type Paging } from '../http/hal';
import { resolveAccess, type AccessByResource, type ResourceKind } from '../policy/access';
import { resolveCaller, resolveCallerWith } from '../policy/caller';
import { requireOffered } from '../policy/guard';
import type { CallerKey, WithCaller } from '../repositories/callers';
import { isUuid } from '../repositories/ids';
import type { RouteContext } from './context';
import { parseBody, parseQuery, rejectNulCharacters, wellFormedStrings } from '../http/validation';
import { ResponseSchema, serializerOf, textAnswerProblems } from '../http/responseSchema';
import { HttpError } from '../http/errors';
import { JSON_CONTENT_TYPE, JsonText } from '../http/jsonText';

// Every API route is declared through `defineRoute`: it names the resource it acts on and the
// relation the caller must be offered there, and the one guard below authorises it before any
// input is read. Input is validated by the route's own zod schemas, which the hostile-input and
// leak suites read to generate their cases.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Guard<K extends ResourceKind> {
  resource: K;
  /** the caller must be offered one of these relations on the resource */
  rel: string | readonly string[];
  /**
   * the request must address the link itself: its path and the query parameters the href carries
   * (e.g. '/invitations?email=' pinned to the caller's own address)
   */
  pinned?: boolean;
  /** the path parameter that names the resource (default 'id'; none for root) */
  param?: string;
}

export interface PagingOptions {
  defaultSize?: number;
  sortable?: readonly string[];
}

/** What the guard and the generated suites know of a route; kept on the route's config. */
export interface RouteMeta {
  guard: Guard<ResourceKind>;
  body: z.ZodType | undefined;
  query: z.ZodType | undefined;
  paging: PagingOptions | undefined;
  objectName: string;
  /** the body of a 2xx answer (a schema of src/domain/resources.ts); undefined for 204s, streams, CSV and files */
  response: z.ZodType | undefined;
  /** the route reads its caller itself, in its own statement (RouteSpec.readWithCaller): the request hook leaves it alone */
  readsCaller: boolean;
}

const ROUTE_META = Symbol('api route meta');

const UNPAGED: Paging = { page: 0, size: 20, sort: undefined };

interface HandlerArgs<K extends ResourceKind, B extends z.ZodType, Q extends z.ZodType, T = never> {
  request: FastifyRequest;
  reply: FastifyReply;
  access: AccessByResource[K];
  body: z.output<B>;
  query: z.output<Q>;
  paging: Paging;
  /** a path parameter ('*' for a wildcard) */
  param: (name: string) => string;
  /** what RouteSpec.readWithCaller read with the caller (empty for other routes) */
  carried: T[];
}

interface ValidInput<B extends z.ZodType, Q extends z.ZodType> {
  body: z.output<B>;
  query: z.output<Q>;
  paging: Paging;
}

interface RouteSpec<K extends ResourceKind, B extends z.ZodType, Q extends z.ZodType, T = never> {
  method: Method;
  url: string;
  guard: Guard<K>;
  /** validated after authorisation; a failure is a 400 with field errors */
  body?: B;
  query?: Q;
  paging?: PagingOptions;
  /** the objectName of field errors */
  objectName?: string;
  /**
   * The body of a 2xx answer: Fastify writes it through this schema's JSON Schema, so a field the
   * schema does not name is not sent (an answer the handler wrote as JsonText is sent as it is,
   * and the schema still describes it: with CHECK_TEXT_ANSWERS, as on the test servers, such an
   * answer that does not pass it is a 500). Every route answering a JSON resource declares one.
   */
  response?: z.ZodType;
  /**
   * For the hottest reads: the read to make in the caller's own statement (readWithCaller), so
   * that the request makes one round trip instead of two. It is given the validated input; the
   * caller it returns is then authorised by the guard like any route's, and the handler gets the
   * rows as `carried` only after that. A guard on a workspace reads that workspace in the same
   * statement. Input that fails validation takes the ordinary path (the guard, then the 400).
   */
  readWithCaller?: (input: ValidInput<B, Q>) => (key: CallerKey, workspaceId: string | undefined) => Promise<WithCaller<T>>;
  handler(args: HandlerArgs<K, B, Q, T>): unknown;
}

export function defineRoute<K extends ResourceKind, B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, T = never>(
  app: FastifyInstance,
  ctx: RouteContext,
  spec: RouteSpec<K, B, Q, T>,
): void {
  const objectName = spec.objectName ?? spec.guard.resource;
  const meta: RouteMeta = {
    guard: spec.guard,
    body: spec.body,
    query: spec.query,
    paging: spec.paging,
    objectName,
    response: spec.response,
    readsCaller: spec.readWithCaller !== undefined,
  };
  const validate = (request: FastifyRequest): ValidInput<B, Q> => {
    rejectNulCharacters(request.query, objectName);
    request.body = wellFormedStrings(request.body);
    rejectNulCharacters(request.body, objectName);
    return {
      query: (spec.query ? parseQuery(spec.query, request.query, objectName) : request.query) as z.output<Q>,
      paging: spec.paging ? parsePaging(request.query, spec.paging) : UNPAGED,
      body: (spec.body ? parseBody(spec.body, request.body, objectName) : request.body) as z.output<B>,
    };
  };
  const readWithCaller = spec.readWithCaller;
  const checkTextAnswers = ctx.config.env.CHECK_TEXT_ANSWERS === 'true';
  app.route({
    method: spec.method,
    url: spec.url,
    config: { [ROUTE_META]: meta },
    ...(spec.response ? { schema: { response: { '2xx': new ResponseSchema(spec.response) } }, serializerCompiler: serializerOf } : {}),
    handler: async (request, reply) => {
      const params = (request.params ?? {}) as Record<string, string | undefined>;
      const param = (name: string) => params[name] ?? '';
      const id = spec.guard.resource === 'root' ? '' : param(spec.guard.param ?? 'id');
      let input: ValidInput<B, Q> | undefined;
      let carried: T[] = [];
      if (readWithCaller) {
        const workspaceId = spec.guard.resource === 'workspace' && isUuid(id) ? id : undefined;
        try {
          input = validate(request);
        } catch {
          // the ordinary order below: the guard first, then the same validation answers 400
        }
        if (input) {
          const read = readWithCaller(input);
          ({ caller: request.caller, rows: carried } = await resolveCallerWith(request.principal, workspaceId, (key) => read(key, workspaceId)));
        } else request.caller = await resolveCaller(ctx.db, request.principal, workspaceId);
      }
      const access = await resolveAccess(spec.guard.resource, { db: ctx.db, h: ctx.h, caller: request.caller, params }, id);
      requireOffered(access, spec.guard.rel, spec.guard.pinned === true ? request.url : undefined, request.caller);
      const { body, query, paging } = input ?? validate(request);
      const answer = await spec.handler({ request, reply, access, body, query, paging, param, carried });
      if (!(answer instanceof JsonText)) return answer;
      if (checkTextAnswers && spec.response) {
        const problems = textAnswerProblems(spec.response, answer.text);
        // a 500 that says why: only the test servers check (a server in use sends such text as it is)
        if (problems.length > 0) throw new HttpError(500, `${spec.method} ${spec.url}: an answer written as JSON text does not pass its response schema: ${problems.join(', ')}`);
      }
      // Already JSON: it goes out as it is, its pieces encoded once into one buffer here. Sent as a
      // string, Node would prepend the header to it and flatten the pair into a second copy on the
      // JS heap, and Fastify would scan it again for its length.
      void reply.type(JSON_CONTENT_TYPE);
      return answer.bytes();
    },
  });
}

/** The meta of a registered route, or undefined for a route that did not come through defineRoute. */
export function routeMeta(config: unknown): RouteMeta | undefined {
  if (typeof config !== 'object' || config === null) return undefined;
  return (config as { [ROUTE_META]?: RouteMeta })[ROUTE_META];
}
