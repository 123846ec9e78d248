import { Button, makeStyles, MessageBar, MessageBarBody, Spinner, Toast, Toaster, ToastTitle, tokens, useId, useToastController } from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { pipelineEnvironment } from '../../../../../api/pipelines';
import { COPIED_TOAST_MS } from '../../../../../domain/constants';
import type { Environment, Pipeline } from '../../../../../domain/resources';
import { failureText } from '../../../../../machines/failureText';
import { useRuntime } from '../../../../runtime';

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
  const { client } = useRuntime();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toasterId = useId('env-toaster');
  const { dispatchToast } = useToastController(toasterId);

  useEffect(() => {
    const controller = new AbortController();
    pipelineEnvironment(client, pipeline, { signal: controller.signal }).then(
      (environment) => setText(envText(environment)),
      (failure: unknown) => controller.signal.aborted || setError(failureText(failure)),
    );
    return () => controller.abort();
  }, [client, pipeline]);

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
      (failure: unknown) => setError(failureText(failure)),
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
