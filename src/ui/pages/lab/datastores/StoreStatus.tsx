import { Badge, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { storeState, storeStateColour } from '../../../../domain/dataStores';
import type { DataStore } from '../../../../domain/resources';

const useStyles = makeStyles({
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap', alignItems: 'center' },
  failed: { color: tokens.colorPaletteRedForeground1, overflowWrap: 'anywhere' },
});

/** A store's state badge (DRAFT, FAILED, PROVISIONING, READY), 'Default' when it is, and why its last check failed. */
export function StoreStatus({ store }: { store: DataStore }) {
  const styles = useStyles();
  const state = storeState(store);
  return (
    <>
      <span className={styles.badges}>
        <Badge appearance="tint" color={storeStateColour(state)} data-state={state}>
          {state}
        </Badge>
        {store.default === true && (
          <Badge appearance="outline" color="brand">
            Default
          </Badge>
        )}
      </span>
      {state === 'FAILED' && store.statusMessage && <Caption1 className={styles.failed}>{store.statusMessage}</Caption1>}
    </>
  );
}
