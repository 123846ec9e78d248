import { randomUUID } from 'node:crypto';
import type { Links } from '../http/hal';
import type { JsonPieces } from '../http/jsonText';
import type { Hrefs } from '../policy/hrefs';

// The links of a body depend on a few flags (the viewer's role, a star...) and on the ids they
// carry. Each combination of flags is rendered once per server, by the policy's own link function,
// as JSON with stand-ins for the ids; a body's links are that text with its ids put in. A feed page
// of ten built and serialised ~150 link objects per request before (issue 21). The templates are a
// pure function of the code and the public URL, the same in every process; they are kept per
// server (Hrefs), whose public URL they hold.

const STAND_INS = [randomUUID(), randomUUID()] as const;
const AT_STAND_IN = new RegExp(`(${STAND_INS.join('|')})`);
const templates = new WeakMap<Hrefs, Map<string, readonly string[]>>();

/**
 * `render`'s links as JSON: rendered once per server and `key` (which must name every flag
 * `render` reads besides the ids) with stand-ins for `ids`, then filled with them, as pieces
 * (JsonText): the template's text between the ids is shared by every answer, never copied. Ids are
 * UUIDs: nothing in them to escape in a URL or in JSON.
 */
export function linksJson(h: Hrefs, key: string, ids: readonly string[], render: (ids: readonly string[]) => Links): JsonPieces {
  let byKey = templates.get(h);
  if (!byKey) templates.set(h, (byKey = new Map<string, readonly string[]>()));
  let parts = byKey.get(key);
  if (!parts) {
    // split with the capturing group: text, stand-in, text, stand-in, ..., text
    parts = JSON.stringify(render(STAND_INS.slice(0, ids.length))).split(AT_STAND_IN);
    byKey.set(key, parts);
  }
  const pieces = parts.slice();
  for (let i = 1; i < pieces.length; i += 2) pieces[i] = ids[pieces[i] === STAND_INS[0] ? 0 : 1]!;
  return pieces;
}
