import { Caption1, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import type { Pipeline } from '../../../../../domain/resources';

const useStyles = makeStyles({
  group: { marginBottom: tokens.spacingVerticalM },
  list: { display: 'grid', gridTemplateColumns: 'minmax(120px, max-content) 1fr', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalXS, margin: 0 },
  name: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'anywhere', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  heading: { display: 'block', marginBottom: tokens.spacingVerticalXS },
});

/** The pipeline's own properties, keyed '{component}.{setting}', grouped by component, read-only. */
export function groupProperties(pipeline: Pipeline): Map<string, [string, string][]> {
  const groups = new Map<string, [string, string][]>();
  for (const component of pipeline.dataComponents ?? []) groups.set(component, []);
  for (const [key, value] of Object.entries(pipeline.properties ?? {})) {
    const dot = key.indexOf('.');
    const component = dot > 0 ? key.slice(0, dot) : '';
    const setting = dot > 0 ? key.slice(dot + 1) : key;
    const shown = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
    const list = groups.get(component) ?? [];
    list.push([setting, shown]);
    groups.set(component, list);
  }
  return groups;
}

export function SettingsTab({ pipeline }: { pipeline: Pipeline }) {
  const styles = useStyles();
  const groups = [...groupProperties(pipeline)];
  if (groups.length === 0) return <Caption1>This pipeline has no components yet.</Caption1>;
  return (
    <div>
      {groups.map(([component, settings]) => (
        <section key={component} className={styles.group}>
          <Subtitle2 as="h3" className={styles.heading}>
            {component === '' ? 'Pipeline' : component}
          </Subtitle2>
          {settings.length === 0 ? (
            // what the pipeline sets is empty, not what the run uses: the component's own values apply
            <Caption1>Nothing set on this pipeline: it runs with the component's own settings, shown under Environment.</Caption1>
          ) : (
            <dl className={styles.list}>
              {settings.map(([name, value]) => (
                <div key={name} style={{ display: 'contents' }}>
                  <dt className={styles.name}>{name}</dt>
                  <dd className={styles.value}>{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      ))}
    </div>
  );
}
