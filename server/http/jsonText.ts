/**
 * An answer already written as JSON: a read model's stored text spliced with what each request
 * adds (representations/dataset.ts). A route returns it instead of an object and defineRoute sends
 * the text as it is, as JSON, without the response schema's serialiser. What it may hold is fixed
 * where the text is written: the stored part by its trigger's field list, the rest by typed bodies.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
