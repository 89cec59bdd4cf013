import { ExportOutlined, ReloadOutlined } from '@ant-design/icons';
import { aiNavigationUrl } from '@gpu/shared/ai-navigation';
import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTenant } from '../../../lib/tenant-context';
import { t } from '../../../locales/zh-CN';
import { AI_NAVIGATION_TIMEOUT_MS, useEmbedStatus } from '../ai-navigation';
import styles from './AiNavigationPage.module.css';

const a = t.aiNavigation;
type State = 'loading' | 'loaded' | 'timedOut';

/**
 * /ai-navigation: the tenant's AI navigation page in a frame (SPEC.md §2). A frame reports no
 * error (a refused or unreachable page still fires `load`), so the fallback shows when the
 * server's check of the page says it cannot be framed or is unavailable, or when no load event
 * comes within the timeout; the "open" link is always there.
 */
export default function AiNavigationPage() {
  const src = aiNavigationUrl(useTenant().aiNavigationUrl);
  const [attempt, setAttempt] = useState(0);
  const { embed, check } = useEmbedStatus();
  const retry = () => {
    check();
    setAttempt((n) => n + 1);
  };
  // A new key per URL and retry: the frame and its loading state start afresh.
  return <EmbeddedPage key={`${src}#${attempt}`} src={src} embed={embed} onRetry={retry} />;
}

function EmbeddedPage({ src, embed, onRetry }: { src: string; embed?: string; onRetry: () => void }) {
  const [state, setState] = useState<State>('loading');

  useEffect(() => {
    const timer = window.setTimeout(
      () => setState((s) => (s === 'loading' ? 'timedOut' : s)),
      AI_NAVIGATION_TIMEOUT_MS,
    );
    return () => window.clearTimeout(timer);
  }, []);

  const open = (
    <Button icon={<ExportOutlined />} href={src} target="_blank" rel="noopener noreferrer">
      {a.openDirect}
    </Button>
  );
  const failure =
    embed === 'refused'
      ? a.refusedText
      : embed === 'unavailable'
        ? a.unavailableText
        : state === 'timedOut'
          ? a.fallbackText
          : null;

  return (
    <div className={styles.page}>
      {failure ? (
        <Result
          status="warning"
          title={a.fallbackTitle}
          subTitle={failure}
          extra={[
            <Button key="retry" type="primary" icon={<ReloadOutlined />} onClick={onRetry}>
              {a.retry}
            </Button>,
            <span key="open">{open}</span>,
          ]}
          data-testid="ai-nav-fallback"
        />
      ) : (
        <>
          {state === 'loading' ? (
            <div className={styles.loading} data-testid="ai-nav-loading">
              <Spin size="large" />
              <span>{a.loading}</span>
            </div>
          ) : null}
          <iframe
            className={styles.frame}
            src={src}
            title={t.routes.aiNavigation}
            // The embedded site runs in its own origin; no top navigation, no access to ours.
            sandbox="allow-scripts allow-same-origin allow-popups allow-forms"
            referrerPolicy="no-referrer"
            onLoad={() => setState('loaded')}
            data-testid="ai-nav-frame"
          />
          <div className={styles.openLink}>{open}</div>
        </>
      )}
    </div>
  );
}
