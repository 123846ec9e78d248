import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, DialogTrigger, Input, makeStyles, tokens } from '@fluentui/react-components';
import { ChatRegular, CheckmarkRegular, CopyRegular, MailRegular, PeopleTeamRegular, ShareRegular } from '@fluentui/react-icons';
import { useEffect, useState, type ReactElement } from 'react';
import { COPIED_TOAST_MS } from '../../../../domain/constants';
import { shareCopiesLink, shareHref, type ShareTarget } from '../../../../domain/datasetPage';
import { ActionLabel, named } from './ActionLabel';

const useStyles = makeStyles({
  targets: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalM },
  link: { width: '100%' },
});

const LABELS: Record<ShareTarget, string> = { copy: 'Copy Link', email: 'Email', teams: 'Teams', slack: 'Slack', message: 'Message' };
const ICONS: Record<ShareTarget, ReactElement> = {
  copy: <CopyRegular />,
  email: <MailRegular />,
  teams: <PeopleTeamRegular />,
  slack: <ChatRegular />,
  message: <ChatRegular />,
};

/** Share: Copy Link ('Copied' for 3 s), Email, and Teams, Slack, Message under their switches. */
export function ShareDialog({ url, title, targets, disabled }: { url: string; title: string; targets: readonly ShareTarget[]; disabled: boolean }) {
  const styles = useStyles();
  const [copied, setCopied] = useState(false);
  const [copyError, setCopyError] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPIED_TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = () =>
    (navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject(new Error('Copying is not available in this browser.'))).then(
      () => {
        setCopyError(null);
        setCopied(true);
      },
      (error: unknown) => setCopyError(error instanceof Error ? error.message : 'Copying failed.'),
    );

  return (
    <Dialog>
      <DialogTrigger disableButtonEnhancement>
        <Button icon={<ShareRegular />} disabled={disabled} {...named('Share')}>
          <ActionLabel>Share</ActionLabel>
        </Button>
      </DialogTrigger>
      <DialogSurface aria-label="Share">
        <DialogBody>
          <DialogTitle>Share</DialogTitle>
          <DialogContent>
            <Input className={styles.link} readOnly value={url} aria-label="Link to this dataset" />
            <div className={styles.targets}>
              {targets.map((target) => {
                const href = shareHref(target, url, title);
                if (target === 'copy') {
                  return (
                    <Button key={target} appearance="primary" icon={copied ? <CheckmarkRegular /> : ICONS.copy} onClick={() => void copy()}>
                      {copied ? 'Copied' : LABELS.copy}
                    </Button>
                  );
                }
                return (
                  <Button
                    key={target}
                    as="a"
                    href={href}
                    target="_blank"
                    rel="noopener noreferrer"
                    icon={ICONS[target]}
                    onClick={() => {
                      // Slack has no web share endpoint: the link goes on the clipboard to paste there.
                      if (shareCopiesLink(target)) void copy();
                    }}
                  >
                    {LABELS[target]}
                  </Button>
                );
              })}
            </div>
            {copyError !== null && <p role="alert">{copyError}</p>}
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button>Close</Button>
            </DialogTrigger>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
