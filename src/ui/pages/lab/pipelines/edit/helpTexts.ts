// The help column's default 'Data Import' overview (spec 001 §2), one paragraph per section.
export const DATA_IMPORT_HELP = [
  { title: 'Name', text: 'A name for this data import. It defaults to the first component you add.' },
  { title: 'Settings', text: 'Each component brings its own settings. Required settings are marked; secrets are masked and never shown again once saved.' },
  { title: 'Actions', text: 'Default runs the extractors, then the loaders (and dbt when present). Custom lists the actions to run in order; Script runs your own shell script.' },
  { title: 'Schedule', text: 'Manual runs only when started by hand or by another import. Hourly, Daily or a Custom cron expression run it on a schedule.' },
] as const;
