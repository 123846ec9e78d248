import { Button, makeStyles, MessageBar, MessageBarBody, Spinner, Toast, Toaster, ToastTitle, tokens, useId, useToastController } from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { COPIED_TOAST_MS } from '../../../../../domain/constants';
import type { Environment, Pipeline } from '../../../../../domain/resources';
import { failureText } from '../../../../../machines/failureText';
import { usePipelineEnvironment } from '../../../../data/pipelines';

const useStyles = makeStyles({
  text: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    margin: 0,
  },
  bar: { display: 'flex', justifyContent: 'flex-end', marginBottom: tokens.spacingVerticalS },
});

/** The .env-style text: sensitive values are *** on the wire and stay so. */
export function envText(environment: Environment): string {
  return Object.entries(environment.variables)
    .map(([name, variable]) => `${name}=${variable.sensitive ? '***' : (variable.value ?? '')}`)
    .join('\n');
}

export function EnvironmentTab({ pipeline }: { pipeline: Pipeline }) {
  const styles = useStyles();
  const environment = usePipelineEnvironment(pipeline);
  const [copyError, setCopyError] = useState<string | null>(null);
  const toasterId = useId('env-toaster');
  const { dispatchToast } = useToastController(toasterId);
  const text = environment.state.status === 'ready' ? envText(environment.state.data) : null;
  const error = environment.state.status === 'failed' ? environment.state.message : copyError;

  const copy = () => {
    if (text === null) return;
    navigator.clipboard.writeText(text).then(
      () =>
        dispatchToast(
          <Toast>
            <ToastTitle>Copied</ToastTitle>
          </Toast>,
          { intent: 'success', timeout: COPIED_TOAST_MS },
        ),
      (failure: unknown) => setCopyError(failureText(failure)),
    );
  };

  if (error !== null)
    return (
      <MessageBar intent="error">
        <MessageBarBody>{error}</MessageBarBody>
      </MessageBar>
    );
  if (text === null) return <Spinner size="small" />;
  return (
    <div>
      <Toaster toasterId={toasterId} />
      <div className={styles.bar}>
        <Button icon={<CopyRegular />} onClick={copy}>
          Copy
        </Button>
      </div>
      <pre className={styles.text} aria-label="Environment">
        {text === '' ? '# no variables' : text}
      </pre>
    </div>
  );
}
