// The dataset lists' texts of spec 002, word for word.

export const NO_MATCHES = 'There were no datasets matching your query.';
export const REFINE_SEARCH = 'Please refine your search.';
export const IMPORT_MORE_DATA = 'Import more data';
