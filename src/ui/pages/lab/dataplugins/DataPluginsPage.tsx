import { Dropdown, makeStyles, Option, Tab, TabList, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { CATALOGUE_TABS, catalogueTabIndex } from '../../../../domain/catalogue';
import { PLUGIN_TYPES } from '../../../../domain/resources';
import { pathTo } from '../../../../domain/routes';
import { PageHeader } from '../../../components/PageHeader';
import { useRoute } from '../../../shell/useRoute';
import { useWorkspace } from '../../../shell/useWorkspace';
import { DiscoveryUpload } from './DiscoveryUpload';
import { PluginList } from './PluginList';

const ALL_TYPES = 'All types';

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalM, overflowX: 'auto' },
  type: { minWidth: '160px' },
});

/** /lab/{workspaceId}/dataplugins, the plugin catalogue (spec 001 §2): tabs by `?tab`, filtered by `?type`. */
export default function DataPluginsPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const route = useRoute();
  const navigate = useNavigate();
  const query = (route?.query ?? {}) as { tab?: string; type?: string };
  const tab = catalogueTabIndex(query.tab);
  const type = query.type !== undefined && (PLUGIN_TYPES as readonly string[]).includes(query.type) ? query.type : null;
  const go = (nextTab: number, nextType: string | null) =>
    void navigate(pathTo('dataplugins', { workspaceId: workspace.id }, { tab: String(nextTab), ...(nextType === null ? {} : { type: nextType }) }), { replace: true });

  const filter = (
    <Dropdown
      className={styles.type}
      aria-label="Plugin type"
      value={type ?? ALL_TYPES}
      selectedOptions={[type ?? ALL_TYPES]}
      onOptionSelect={(_, data) => go(tab, data.optionValue === ALL_TYPES || data.optionValue === undefined ? null : data.optionValue)}
    >
      {[ALL_TYPES, ...PLUGIN_TYPES].map((t) => (
        <Option key={t} value={t}>
          {t}
        </Option>
      ))}
    </Dropdown>
  );

  return (
    <>
      <PageHeader title="Plugins" />
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, data) => go(Number(data.value), type)}>
        {CATALOGUE_TABS.map((label, index) => (
          <Tab key={label} value={index}>
            {label}
          </Tab>
        ))}
      </TabList>
      {tab === 2 ? (
        <DiscoveryUpload workspace={workspace} />
      ) : (
        // A new machine per tab and type: the list starts again from its first page.
        <PluginList key={`${String(tab)}:${type ?? ''}`} workspace={workspace} installed={tab === 0} type={type} filter={filter} />
      )}
    </>
  );
}
