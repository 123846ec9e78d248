import { Badge } from '@fluentui/react-components';
import { LINEAGE_STATUS_TEXT, type LineageStatus } from '../../domain/lineageResources';

const BADGE_COLOUR: Readonly<Record<LineageStatus, 'danger' | 'severe' | 'warning' | 'informative' | 'success'>> = {
  failed: 'danger',
  missing: 'severe',
  stale: 'warning',
  unloaded: 'informative',
  fresh: 'success',
};

/** A lineage node's status in words, coloured: never the colour alone (issue 41). */
export function LineageStatusBadge({ status }: { status: LineageStatus }) {
  return (
    <Badge appearance="tint" color={BADGE_COLOUR[status]} data-status={status}>
      {LINEAGE_STATUS_TEXT[status]}
    </Badge>
  );
}
