// Comments of spec 002 §4-§7: who may write them, and what a message's text means. A message is
// plain text: #tags and @handles are found here as spans so the view can render links and names
// as React text, never as HTML.

export const COMMENT_PAGE_SIZE = 6;
export const DELETE_COMMENT_TITLE = 'Delete comment?';
export const DELETE_COMMENT_TEXT = 'Remove this comment. This action cannot be undone.';

/**
 * The workspace's MEMBER_COMMENTS_READ_ONLY (APP_PROPERTY.memberCommentsReadOnly) set to true makes
 * the discussion read-only for members who are not admins (MEMBER_COMMENTS_READ_ONLY_MESSAGE then
 * explains why). Admins keep writing.
 */
export function memberCommentsReadOnly(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === 'true';
}

/** A message with text in it: the Comment and Reply buttons appear only then. */
export function hasText(message: string | null | undefined): boolean {
  return typeof message === 'string' && message.trim() !== '';
}

/**
 * A member's @handle: the stored one, else '@' and a slug of the name (letters and digits, runs of
 * anything else as one '-'), else '@' and the id.
 */
export function memberHandle(member: { readonly id: string; readonly name: string; readonly handle?: string | null | undefined }): string {
  const stored = member.handle?.trim();
  if (stored) return stored.startsWith('@') ? stored : `@${stored}`;
  const slug = member.name
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+/, '')
    .replace(/-+$/, '');
  return `@${slug || member.id}`;
}

// A handle is '@' and letters, digits, '-', '_' or '.' (not ending in '.', so a sentence's full
// stop stays out); a tag is '#' and letters, digits, '-' or '_'. Both start a word.
const TOKEN = /(^|[^\p{L}\p{N}_@#])([@#])([\p{L}\p{N}_](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_-])?)/gu;

type MessagePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tag'; readonly text: string; readonly tag: string }
  | { readonly kind: 'mention'; readonly text: string; readonly handle: string };

/** Splits a message into text, #tag and @handle parts; joined back, the parts are the message. */
export function messageParts(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let at = 0;
  for (const match of message.matchAll(TOKEN)) {
    const lead = match[1] ?? '';
    const sigil = match[2] ?? '';
    const name = match[3] ?? '';
    const start = (match.index ?? 0) + lead.length;
    if (start > at) parts.push({ kind: 'text', text: message.slice(at, start) });
    const text = `${sigil}${name}`;
    parts.push(sigil === '#' ? { kind: 'tag', text, tag: name.toLowerCase() } : { kind: 'mention', text, handle: text.toLowerCase() });
    at = start + text.length;
  }
  if (at < message.length) parts.push({ kind: 'text', text: message.slice(at) });
  return parts;
}

/** The distinct @handles of a message, lowercased. */
export function mentionedHandles(message: string): string[] {
  return [...new Set(messageParts(message).flatMap((part) => (part.kind === 'mention' ? [part.handle] : [])))];
}

/** The members a message mentions: only handles of these members count (others stay text). */
export function mentionedMembers<M extends { readonly id: string; readonly name: string; readonly handle?: string | null | undefined }>(message: string, members: readonly M[]): M[] {
  const wanted = new Set(mentionedHandles(message));
  if (wanted.size === 0) return [];
  return members.filter((member) => wanted.has(memberHandle(member).toLowerCase()));
}

/**
 * The message as a notification or any plain text says it: each @handle of one of these members
 * becomes the member's name (as the comment thread shows it), every other part stays as written.
 */
export function withMemberNames(message: string, members: readonly { readonly id: string; readonly name: string; readonly handle?: string | null | undefined }[]): string {
  const names = new Map(members.map((member) => [memberHandle(member).toLowerCase(), member.name.trim()]));
  return messageParts(message)
    .map((part) => (part.kind === 'mention' ? names.get(part.handle) || part.text : part.text))
    .join('');
}

/**
 * The mention being typed at the caret: '@' at a word start followed by the handle characters up
 * to the caret. Its start index and the query (without '@'), or undefined.
 */
export function mentionAtCaret(text: string, caret: number): { readonly start: number; readonly query: string } | undefined {
  const before = text.slice(0, Math.max(0, Math.min(caret, text.length)));
  const match = /(^|[^\p{L}\p{N}_@#])@([\p{L}\p{N}_.-]{0,50})$/u.exec(before);
  if (!match) return undefined;
  const query = match[2] ?? '';
  return { start: before.length - query.length - 1, query };
}

/** Members whose name or handle contains the query (case-insensitive), at most `limit`. */
export function suggestMembers<M extends { readonly id: string; readonly name: string; readonly handle?: string | null | undefined }>(members: readonly M[], query: string, limit = 6): M[] {
  const q = query.trim().toLowerCase();
  return members.filter((m) => q === '' || m.name.toLowerCase().includes(q) || memberHandle(m).toLowerCase().includes(q)).slice(0, limit);
}

/** The text with the mention at `start` (up to the caret) replaced by the handle and a space. */
export function insertHandle(text: string, start: number, caret: number, handle: string): { readonly text: string; readonly caret: number } {
  const inserted = `${handle} `;
  return { text: `${text.slice(0, start)}${inserted}${text.slice(caret)}`, caret: start + inserted.length };
}
