import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { INSTALL_HINT_DISMISSED_KEY, installHintWanted } from './installHintWanted';

const useStyles = makeStyles({ root: { position: 'fixed', left: tokens.spacingHorizontalM, right: tokens.spacingHorizontalM, bottom: tokens.spacingVerticalM, zIndex: 1000 } });

/** The add-to-home-screen hint for iPad and iPhone; dismissal is remembered locally. */
export default function InstallHint() {
  const styles = useStyles();
  const [wanted, setWanted] = useState(installHintWanted);
  if (!wanted) return null;
  const dismiss = () => {
    window.localStorage.setItem(INSTALL_HINT_DISMISSED_KEY, 'true');
    setWanted(false);
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
