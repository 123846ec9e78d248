import type { SearchMatch } from '../../src/domain/resources';

/** The indexed fields in rank order (a title word weighs most); the numbers are stored in search_postings.field. */
export const FIELDS = ['title', 'alias', 'tags', 'questions', 'description'] as const satisfies readonly SearchMatch['field'][];
export type Field = (typeof FIELDS)[number];
