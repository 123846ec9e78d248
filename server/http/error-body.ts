import type { ErrorBody as WireErrorBody, FieldError as WireFieldError } from '../../src/domain/errors';

// The shared schema (src/domain/errors.ts) reads error bodies loosely; the server always writes
// every field, so it uses the strict form of the same shape.
export type FieldError = Pick<WireFieldError, 'field' | 'objectName' | 'defaultMessage'>;

export type ErrorBody = Required<Pick<WireErrorBody, 'timestamp' | 'status' | 'error' | 'message' | 'path'>> & { errors: FieldError[] };
