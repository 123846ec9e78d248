import { Body1, Caption1, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ChannelRegular } from '@fluentui/react-icons';
import { channelSlides, LIBRARY_TEXT } from '../../../domain/library';
import type { Channel } from '../../../domain/resources';
import { useWindowWidth } from '../../components/useScreenSize';

const ICON = '56px';

const useStyles = makeStyles({
  slider: {
    display: 'grid',
    gap: tokens.spacingHorizontalS,
    margin: 0,
    padding: `${tokens.spacingVerticalXS} 0 ${tokens.spacingVerticalS}`,
    listStyleType: 'none',
    overflowX: 'auto',
    scrollSnapType: 'x mandatory',
  },
  item: { scrollSnapAlign: 'start', minWidth: 0 },
  button: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalXXS,
    width: '100%',
    padding: tokens.spacingVerticalXS,
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    background: 'none',
    cursor: 'pointer',
    color: tokens.colorNeutralForeground1,
    transitionProperty: 'opacity',
    transitionDuration: tokens.durationFaster,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  dimmed: { opacity: 0.4 },
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: ICON,
    height: ICON,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: '28px',
    overflow: 'hidden',
    flexShrink: 0,
  },
  selectedIcon: { outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`, outlineOffset: '2px' },
  picture: { width: '100%', height: '100%', objectFit: 'cover' },
  text: { maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', textAlign: 'center' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * The channels as a horizontal slider of icons (spec 002 Channels): the picture or a default
 * icon, the name and the description; 16 per row down to 5 on a phone, the rest scroll sideways.
 */
export function ChannelSlider({ channels, selected, onSelect }: { channels: readonly Channel[]; selected: string | undefined; onSelect: (name: string) => void }) {
  const styles = useStyles();
  const slides = channelSlides(useWindowWidth());
  // an empty row would be a blank band with nothing said (issue 38)
  if (channels.length === 0) return <Body1 className={styles.muted}>{LIBRARY_TEXT.noChannelsYet}</Body1>;
  return (
    <ul className={styles.slider} style={{ gridAutoFlow: 'column', gridAutoColumns: `max(88px, calc((100% - ${slides - 1} * ${tokens.spacingHorizontalS}) / ${slides}))` }} aria-label="Channels">
      {channels.map((channel) => {
        const isSelected = selected === channel.name;
        return (
          <li key={channel.id} className={styles.item}>
            <button
              type="button"
              className={mergeClasses(styles.button, selected !== undefined && !isSelected && styles.dimmed)}
              aria-pressed={isSelected}
              title={channel.description ?? channel.name}
              onClick={() => onSelect(channel.name)}
            >
              <span className={mergeClasses(styles.icon, isSelected && styles.selectedIcon)} aria-hidden>
                {channel.picture ? <img className={styles.picture} src={channel.picture} alt="" /> : <ChannelRegular />}
              </span>
              <Body1 className={styles.text}>{channel.name}</Body1>
              {channel.description && <Caption1 className={mergeClasses(styles.text, styles.muted)}>{channel.description}</Caption1>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
