import { useLocation } from 'react-router-dom';
import { readSearchParam } from '../../domain/searchQuery';

/**
 * The `search` query value as the spec reads it (domain readSearchParam: decoded, '+' as space,
 * lowercased), or undefined when the URL has none. The raw text is handed over undecoded:
 * URLSearchParams would decode it once already, and a second decode would change '%25' text.
 */
export function useSearchValue(): string | undefined {
  const { search } = useLocation();
  const raw = search
    .replace(/^\?/, '')
    .split('&')
    .find((pair) => pair.startsWith('search='));
  return raw === undefined ? undefined : readSearchParam(raw.slice('search='.length));
}
