import { Button, Caption1, makeStyles, tokens, ToggleButton } from '@fluentui/react-components';
import { ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { chipsPerSlide, tagSearchName } from '../../../domain/explore';
import { useMachines } from '../../MachinesProvider';
import { feedMachines } from '../../machineAreas/feed';

const useStyles = makeStyles({
  slider: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  chips: { display: 'flex', flexWrap: 'nowrap', gap: tokens.spacingHorizontalS, flexGrow: 1, minWidth: 0, margin: 0, padding: 0, listStyleType: 'none' },
  chip: { flexShrink: 1, minWidth: 0 },
  chipButton: { maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export type TagChipsProps = {
  readonly workspaceId: string;
  /** the tag the search is filtered by (as the search writes it) */
  readonly selected: string | undefined;
  readonly width: number;
  /** a chip clicked: its tag, or undefined when the selected chip is clicked again */
  readonly onSelect: (tag: string | undefined) => void;
};

/** Explore's slider of tag chips: chipsPerSlide(width) at a time, with previous and next. */
export function TagChips({ workspaceId, selected, width, onSelect }: TagChipsProps) {
  const styles = useStyles();
  const machines = useMachines(feedMachines);
  const chips = useActorRef(machines.tagChips, { input: { workspaceId } });
  const tags = useSelector(chips, (s) => s.context.tags);
  const failed = useSelector(chips, (s) => s.matches('failed'));
  const [start, setStart] = useState(0);
  const perSlide = chipsPerSlide(width);

  if (failed) {
    return (
      <div className={styles.slider}>
        <Caption1 className={styles.muted}>Tags could not be loaded.</Caption1>
        <Button size="small" appearance="subtle" onClick={() => chips.send({ type: 'user.retry' })}>
          Retry
        </Button>
      </div>
    );
  }
  if (tags.length === 0) return null;
  const first = Math.min(start, Math.max(0, tags.length - perSlide));
  const shown = tags.slice(first, first + perSlide);
  return (
    <nav className={styles.slider} aria-label="Tags">
      <Button
        appearance="subtle"
        size="small"
        icon={<ChevronLeftRegular />}
        aria-label="Previous tags"
        disabled={first === 0}
        onClick={() => setStart(Math.max(0, first - perSlide))}
      />
      <ul className={styles.chips}>
        {shown.map((tag) => {
          const name = tagSearchName(tag.name);
          const isSelected = name === selected;
          return (
            <li key={tag.id ?? tag.name} className={styles.chip}>
              <ToggleButton
                size="small"
                shape="circular"
                checked={isSelected}
                appearance={isSelected ? 'primary' : 'outline'}
                className={styles.chipButton}
                onClick={() => onSelect(isSelected ? undefined : name)}
              >
                #{tag.name}
              </ToggleButton>
            </li>
          );
        })}
      </ul>
      <Button
        appearance="subtle"
        size="small"
        icon={<ChevronRightRegular />}
        aria-label="Next tags"
        disabled={first + perSlide >= tags.length}
        onClick={() => setStart(first + perSlide)}
      />
    </nav>
  );
}
