// A per-process memo of pure functions of a SQL text (the guard's check, the proof that a built
// text is one statement). Parsing depends on nothing but the text and this build of the parser,
// so two processes can never see different answers and nothing here needs invalidating: a
// dataset whose query changes is simply a new key. Keys are exact texts; the memo is bounded by
// entries and by the characters it keeps, dropping the least recently used first. A failure that
// says something about the text (`keep(error)`) is remembered like an answer; any other failure
// (the parser's module did not load) is not.

interface ParseMemoOptions {
  maxEntries?: number;
  /** characters of keys kept in all (answers are of the same order) */
  maxChars?: number;
  /** whether a rejection (an Error) is an answer about the text */
  keep?: (error: unknown) => boolean;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: Error };

export function parseMemo<T>(compute: (text: string) => Promise<T>, options: ParseMemoOptions = {}): (text: string) => Promise<T> {
  const maxEntries = options.maxEntries ?? 500;
  const maxChars = options.maxChars ?? 2_000_000;
  const keep = options.keep ?? (() => false);
  const settled = new Map<string, Outcome<T>>();
  const pending = new Map<string, Promise<T>>();
  let chars = 0;

  const remember = (text: string, outcome: Outcome<T>) => {
    if (text.length > maxChars) return;
    settled.set(text, outcome);
    chars += text.length;
    for (const oldest of settled.keys()) {
      if (settled.size <= maxEntries && chars <= maxChars) break;
      settled.delete(oldest);
      chars -= oldest.length;
    }
  };

  return (text) => {
    const known = settled.get(text);
    if (known) {
      // most recently used goes last
      settled.delete(text);
      settled.set(text, known);
      return known.ok ? Promise.resolve(known.value) : Promise.reject(known.error);
    }
    const running = pending.get(text);
    if (running) return running;
    const started = compute(text).then(
      (value) => {
        remember(text, { ok: true, value });
        return value;
      },
      (error: unknown) => {
        if (error instanceof Error && keep(error)) remember(text, { ok: false, error });
        throw error;
      },
    );
    pending.set(text, started);
    void started.then(
      () => pending.delete(text),
      () => pending.delete(text),
    );
    return started;
  };
}
