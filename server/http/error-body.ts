export interface FieldError {
  field: string;
  objectName: string;
  defaultMessage: string;
}

export interface ErrorBody {
  timestamp: string;
  status: number;
  error: string;
  message: string;
  path: string;
  errors: FieldError[];
}
