import { Body1, Caption1, makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  box: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
    overflowWrap: 'anywhere',
  },
  detail: { fontFamily: tokens.fontFamilyMonospace, whiteSpace: 'pre-wrap', maxHeight: '8em', overflowY: 'auto' },
});

/** One of spec 002 §5's messages in place of a visualisation, with its detail (keys, parser text). */
export function VisualisationMessage({ message, detail }: { message: string; detail?: string | null }) {
  const styles = useStyles();
  return (
    <div className={styles.box} role="status">
      <Body1>{message}</Body1>
      {detail ? <Caption1 className={styles.detail}>{detail}</Caption1> : null}
    </div>
  );
}
