// The dataset lists' texts of spec 002, word for word.

export const NO_MATCHES = 'There were no datasets matching your query.';
export const REFINE_SEARCH = 'Please refine your search.';
export const IMPORT_MORE_DATA = 'Import more data';

// The home of a workspace that has no dataset yet: the next step, by role (issue 20).
export const NO_DATASETS_YET = 'No datasets yet';
export const FIRST_DATASET_ADMIN = 'Datasets appear here once a pipeline has loaded data and a dataset is published over it. Start with an import, or see which sources the catalogue offers.';
export const FIRST_DATASET_MEMBER = "Your workspace's admins publish datasets here. You will see each one as soon as it is published, and can watch and discuss it; the catalogue shows what there is so far.";
const BROWSE_CATALOGUE = 'Browse the catalogue';
const EXPLORE_CATALOGUE = 'Explore the catalogue';
export const FIRST_DATASET_LINKS = { import: IMPORT_MORE_DATA, plugins: BROWSE_CATALOGUE, explore: EXPLORE_CATALOGUE } as const;
