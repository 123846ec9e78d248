import type { SearchMatch } from '../../src/domain/resources';
import type { Paging } from '../http/hal';
import type { SearchText } from '../repositories/searchText';

// The seam between the API and whatever answers a search. Today PostgreSQL answers it
// (postgres.ts); an external engine such as OpenSearch could implement the same interface,
// fed by the same writes (see docs/decisions.md, "Search").

export interface SearchRequest {
  readonly workspaceId: string;
  /** whose private lists `in:` may name; without one only workspace-wide channels count */
  readonly viewerId: string | undefined;
  readonly text: SearchText;
  readonly paging: Paging;
}

export interface SearchHit {
  readonly id: string;
  /** why the dataset matched, best first; empty when the query had no words (filters only) */
  readonly matches: readonly SearchMatch[];
}

export interface SearchResult {
  /** the page's datasets in rank order */
  readonly hits: readonly SearchHit[];
  /** all matching datasets, for paging */
  readonly total: number;
}

export interface SearchEngine {
  search(request: SearchRequest): Promise<SearchResult>;
}
