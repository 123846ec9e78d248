import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError } from 'zod';
import type { ErrorBody, FieldError } from './error-body';

export type { ErrorBody, FieldError } from './error-body';

/** A failure with an HTTP status; the error handler turns it into the spec's error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, errors: FieldError[] = []) => new HttpError(400, message, errors);
export const unauthorized = (message = 'Full authentication is required to access this resource') => new HttpError(401, message);
export const forbidden = (message = 'Access is denied') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, errors: FieldError[] = []) => new HttpError(409, message, errors);

/** Field errors from a zod failure, named the way Spring names them ('name', 'defaultWorkspace.id'). */
export function zodFieldErrors(error: ZodError, objectName: string): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join('.'),
    objectName,
    defaultMessage: issue.message,
  }));
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function errorBody(status: number, message: string, path: string, errors: FieldError[] = []): ErrorBody {
  return {
    timestamp: new Date().toISOString(),
    status,
    error: REASONS[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error'),
    message,
    path,
    errors,
  };
}

export function sendError(reply: FastifyReply, request: FastifyRequest, status: number, message: string, errors: FieldError[] = []) {
  return reply.status(status).type('application/json').send(errorBody(status, message, request.url.split('?')[0] ?? request.url, errors));
}

/** Every 4xx/5xx of the API leaves in the same body: {timestamp, status, error, message, path, errors}. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return sendError(reply, request, error.status, error.message, error.errors);
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendError(reply, request, status, 'An unexpected error occurred.');
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return sendError(reply, request, 400, 'Malformed JSON request body', [{ field: '', objectName: 'body', defaultMessage: error.message }]);
    }
    return sendError(reply, request, status, error.message);
  });
}
