import { ExportOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTenant } from '../../../lib/tenant-context';
import { t } from '../../../locales/zh-CN';
import { AI_NAVIGATION_TIMEOUT_MS, aiNavigationUrl } from '../ai-navigation';
import styles from './AiNavigationPage.module.css';

const a = t.aiNavigation;
type State = 'loading' | 'loaded' | 'failed';

/**
 * /ai-navigation: the tenant's AI navigation page in a frame (SPEC.md §2). A frame reports no
 * load error, so no load event within the timeout shows the fallback; a site that forbids
 * framing shows its own browser error inside the frame, hence the always-present "open" link.
 */
export default function AiNavigationPage() {
  const src = aiNavigationUrl(useTenant().aiNavigationUrl);
  const [attempt, setAttempt] = useState(0);
  // A new key per URL and retry: the frame and its loading state start afresh.
  return <EmbeddedPage key={`${src}#${attempt}`} src={src} onRetry={() => setAttempt((n) => n + 1)} />;
}

function EmbeddedPage({ src, onRetry }: { src: string; onRetry: () => void }) {
  const [state, setState] = useState<State>('loading');

  useEffect(() => {
    const timer = window.setTimeout(
      () => setState((s) => (s === 'loading' ? 'failed' : s)),
      AI_NAVIGATION_TIMEOUT_MS,
    );
    return () => window.clearTimeout(timer);
  }, []);

  const open = (
    <Button icon={<ExportOutlined />} href={src} target="_blank" rel="noopener noreferrer">
      {a.openDirect}
    </Button>
  );

  return (
    <div className={styles.page}>
      {state === 'failed' ? (
        <Result
          status="warning"
          title={a.fallbackTitle}
          subTitle={a.fallbackText}
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
