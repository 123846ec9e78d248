/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF; returns rows of fields. */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field.length === 0) quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** The narrowest JSON Schema type that fits every non-empty value of a column. */
export function inferType(values: readonly unknown[]): Record<string, unknown> {
  const present = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (present.length === 0) return { type: ['string', 'null'] };
  if (present.every((v) => typeof v === 'boolean')) return { type: ['boolean', 'null'] };
  if (present.every((v) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d{1,15}$/.test(v)))) return { type: ['integer', 'null'] };
  if (present.every((v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)))) return { type: ['number', 'null'] };
  if (present.every((v) => typeof v === 'string')) return { type: ['string', 'null'] };
  return { type: ['object', 'array', 'string', 'number', 'boolean', 'null'] };
}
