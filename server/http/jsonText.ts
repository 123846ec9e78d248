/**
 * JSON text in pieces, in order: a string, or a list of pieces. An answer is assembled from its
 * parts (a dataset's stored body, its tags, its links…) without joining them into one string first.
 * Each piece is whole text (JSON.stringify's output, a database's): encoded apart, a surrogate pair
 * split between two pieces would not survive.
 */
export type JsonPieces = string | readonly JsonPieces[];

// Below this many characters a piece is joined with its neighbours before encoding: one call into
// the encoder per piece costs more than copying a short string (a workspace's links are eighty
// pieces of a few characters), while a long piece (a stored body) is encoded from where it lies.
const JOIN_BELOW = 512;

/** The pieces as strings to encode in order: runs of short pieces joined, long pieces as they are. */
function chunksOf(pieces: JsonPieces): string[] {
  const chunks: string[] = [];
  let run: string[] = [];
  const visit = (piece: JsonPieces): void => {
    if (typeof piece !== 'string') {
      for (const inner of piece) visit(inner);
    } else if (piece.length < JOIN_BELOW) {
      run.push(piece);
    } else {
      if (run.length > 0) chunks.push(run.join(''));
      run = [];
      chunks.push(piece);
    }
  };
  visit(pieces);
  if (run.length > 0) chunks.push(run.join(''));
  return chunks;
}

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
    return chunksOf(this.pieces).join('');
  }

  /**
   * The UTF-8 bytes, in one buffer. On the feed's 26 KB answer, joining everything was a fifth of
   * the request's garbage and one more copy of the answer: a stored body's piece is a slice of the
   * text the driver read, encoded from there without a copy on the JS heap.
   */
  bytes(): Buffer {
    const chunks = chunksOf(this.pieces);
    if (chunks.length === 1) return Buffer.from(chunks[0]!);
    let length = 0;
    for (const chunk of chunks) length += Buffer.byteLength(chunk);
    const buffer = Buffer.allocUnsafe(length);
    let offset = 0;
    for (const chunk of chunks) offset += buffer.write(chunk, offset);
    return buffer;
  }
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
