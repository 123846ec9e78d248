import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { shouldShowInstallHint } from '../../domain/installHint';

const DISMISSED_KEY = 'installHintDismissed';

const useStyles = makeStyles({ root: { position: 'fixed', left: tokens.spacingHorizontalM, right: tokens.spacingHorizontalM, bottom: tokens.spacingVerticalM, zIndex: 1000 } });

/** The add-to-home-screen hint for iPad and iPhone; dismissal is remembered locally. */
export default function InstallHint() {
  const styles = useStyles();
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches === true || (navigator as Navigator & { standalone?: boolean }).standalone === true;
  const [dismissed, setDismissed] = useState(() => window.localStorage.getItem(DISMISSED_KEY) === 'true');
  if (!shouldShowInstallHint({ userAgent: navigator.userAgent, standalone, dismissed })) return null;
  const dismiss = () => {
    window.localStorage.setItem(DISMISSED_KEY, 'true');
    setDismissed(true);
  };
  return (
    <div className={styles.root}>
      <MessageBar intent="info" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>Install this app</MessageBarTitle>
          Tap the Share button, then “Add to Home Screen”.
        </MessageBarBody>
        <MessageBarActions containerAction={<Button aria-label="Dismiss" appearance="transparent" icon={<DismissRegular />} onClick={dismiss} />} />
      </MessageBar>
    </div>
  );
}
