const MAX_SHOWN = 27;
const KEPT = 24;

/**
 * The toolbar's profile name: over 27 characters shows the first 24 and '...'. Characters are
 * code points, so an emoji or other astral character is never cut in half.
 */
export function displayProfileName(name: string | null | undefined): string {
  if (typeof name !== 'string') return '';
  const characters = Array.from(name);
  return characters.length > MAX_SHOWN ? `${characters.slice(0, KEPT).join('')}...` : name;
}
