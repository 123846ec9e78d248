/**
 * JSON text in pieces, in order: a string, or a list of pieces. An answer is assembled from its
 * parts (a dataset's stored body, its tags, its links…) without joining them into one string first.
 * Each piece is whole text (JSON.stringify's output, a database's): encoded apart, a surrogate pair
 * split between two pieces would not survive.
 */
export type JsonPieces = string | readonly JsonPieces[];

const byteLength = (pieces: JsonPieces): number => {
  if (typeof pieces === 'string') return Buffer.byteLength(pieces);
  let length = 0;
  for (const piece of pieces) length += byteLength(piece);
  return length;
};

const writeInto = (buffer: Buffer, pieces: JsonPieces, offset: number): number => {
  if (typeof pieces === 'string') return offset + buffer.write(pieces, offset);
  for (const piece of pieces) offset = writeInto(buffer, piece, offset);
  return offset;
};

const joined = (pieces: JsonPieces): string => (typeof pieces === 'string' ? pieces : pieces.map(joined).join(''));

/**
 * An answer already written as JSON: a read model's stored text spliced with what each request
 * adds (representations/dataset.ts). A route returns it instead of an object and defineRoute sends
 * it as it is, as JSON, without the response schema's serialiser. What it may hold is fixed where
 * the text is written: the stored part by its trigger's field list, the rest by typed bodies.
 */
export class JsonText {
  constructor(readonly pieces: JsonPieces) {}

  /** the whole text, as one string */
  get text(): string {
    return joined(this.pieces);
  }

  /**
   * The UTF-8 bytes, each piece encoded straight into one buffer. On the feed's 26 KB answer, a
   * joined string was a fifth of the request's garbage and one more copy of the answer; a stored
   * body's piece is a slice of the text the driver read, so it is not copied on the JS heap at all.
   */
  bytes(): Buffer {
    const buffer = Buffer.allocUnsafe(byteLength(this.pieces));
    writeInto(buffer, this.pieces, 0);
    return buffer;
  }
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
