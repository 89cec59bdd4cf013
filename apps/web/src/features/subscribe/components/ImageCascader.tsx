import { CheckOutlined, DownOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import type { Image, ImageMap } from '@gpu/shared/images';
import { Button, Empty, Skeleton } from 'antd';
import { type Dispatch, type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { t } from '../../../locales/zh-CN';
import {
  acceleratorLabel,
  acceleratorOptions,
  type CascaderAction,
  type CascaderState,
  frameworkOptions,
  pythonOptions,
  versionOptions,
} from '../image-cascader';
import styles from './ImageCascader.module.css';
import { OptionGroup } from './OptionGroup';

const m = t.subscribe.image;

const frameworkLabel = (key: string) => m.framework[key] ?? key;

/** One line naming an image: framework and version, Python, CUDA/CANN/MUSA. */
export function imageSummary(image: Image): string {
  const version = image.frameworkType === 'base' ? image.osInfo : image.frameworkVersion;
  return [
    `${frameworkLabel(image.frameworkType)} ${version}`.trim(),
    m.python(image.pythonVersion),
    acceleratorLabel(image),
  ].join(' · ');
}

export interface ImageCascaderProps {
  imageMap: ImageMap | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  state: CascaderState;
  dispatch: Dispatch<CascaderAction>;
}

function Column({ index, children, waiting }: { index: number; children: ReactNode; waiting: boolean }) {
  return (
    <div className={styles.column}>
      <div className={styles.columnHead}>
        <span className={styles.step}>{index + 1}</span>
        {m.levels[index]}
      </div>
      <div className={styles.columnBody}>
        {waiting ? <p className={styles.waiting}>{m.waiting[index]}</p> : children}
      </div>
    </div>
  );
}

/**
 * The image cascader of SPEC.md §4: framework → version → Python → CUDA/CANN/MUSA, then
 * confirm. The panel opens under the field; Escape closes it without changing the image.
 */
export function ImageCascader({ imageMap, loading, failed, onRetry, state, dispatch }: ImageCascaderProps) {
  const panelId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const footerRef = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(state.open);
  const focusedIn = useRef(false);
  const map = imageMap ?? {};
  const frameworks = frameworkOptions(map);
  const columnsShown = state.open && !loading && !failed && frameworks.length > 0;

  // Focus follows the panel: into its first column once the columns are there (opened while the
  // images still load, that is when they arrive), back to the field on close.
  useEffect(() => {
    if (columnsShown && !focusedIn.current) {
      const panel = panelRef.current;
      (
        panel?.querySelector<HTMLElement>('input:checked') ?? panel?.querySelector<HTMLElement>('input')
      )?.focus();
      focusedIn.current = true;
    }
    if (!state.open) {
      if (wasOpen.current) triggerRef.current?.focus();
      focusedIn.current = false;
    }
    wasOpen.current = state.open;
  }, [state.open, columnsShown]);

  // Once the last level is picked, bring the confirm button into view (phones scroll here).
  const pendingId = state.open ? (state.pending?.id ?? null) : null;
  useEffect(() => {
    if (pendingId !== null) footerRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [pendingId]);

  const versions = versionOptions(map, state.framework);
  const pythons = pythonOptions(map, state.framework, state.version);
  const accelerators = acceleratorOptions(map, state.framework, state.version, state.python);
  const selected = state.selected;

  const onPanelKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      dispatch({ type: 'close' });
    }
  };

  let panel = null;
  if (state.open) {
    let body: ReactNode;
    if (loading) body = <Skeleton active paragraph={{ rows: 4 }} className={styles.skeleton} />;
    else if (failed)
      body = (
        <div className={styles.message} data-testid="image-load-failed">
          <span>{t.subscribe.loadFailed}</span>
          <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
            {t.subscribe.retry}
          </Button>
        </div>
      );
    else if (frameworks.length === 0)
      body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={m.empty} className={styles.empty} />;
    else
      body = (
        <div className={styles.columns}>
          <Column index={0} waiting={false}>
            <OptionGroup
              variant="list"
              label={m.levels[0] ?? ''}
              options={frameworks.map((f) => ({
                value: f,
                label: frameworkLabel(f),
                extra: <RightOutlined />,
              }))}
              value={state.framework}
              onChange={(value) => dispatch({ type: 'framework', value })}
              testId="image-framework"
            />
          </Column>
          <Column index={1} waiting={!state.framework}>
            <OptionGroup
              variant="list"
              label={m.levels[1] ?? ''}
              options={versions.map((v) => ({ value: v, label: v, extra: <RightOutlined /> }))}
              value={state.version}
              onChange={(value) => dispatch({ type: 'version', value })}
              testId="image-version"
            />
          </Column>
          <Column index={2} waiting={!state.version}>
            <OptionGroup
              variant="list"
              label={m.levels[2] ?? ''}
              options={pythons.map((p) => ({ value: p, label: m.python(p), extra: <RightOutlined /> }))}
              value={state.python}
              onChange={(value) => dispatch({ type: 'python', value })}
              testId="image-python"
            />
          </Column>
          <Column index={3} waiting={!state.python}>
            <OptionGroup
              variant="list"
              label={m.levels[3] ?? ''}
              options={accelerators.map((image) => ({
                value: image.id,
                label: acceleratorLabel(image),
                extra: state.pending?.id === image.id ? <CheckOutlined /> : null,
              }))}
              value={state.pending?.id ?? null}
              onChange={(id) => {
                const image = accelerators.find((i) => i.id === id);
                if (image) dispatch({ type: 'accelerator', image });
              }}
              testId="image-accelerator"
            />
          </Column>
        </div>
      );

    panel = (
      // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the panel closes it
      <div
        id={panelId}
        ref={panelRef}
        className={styles.panel}
        onKeyDown={onPanelKey}
        data-testid="image-panel"
      >
        {body}
        <div ref={footerRef} className={styles.footer}>
          <div className={styles.pending} data-testid="image-pending">
            {state.pending ? (
              <>
                <strong>{state.pending.imageName}</strong>
                <span className={styles.url}>{state.pending.imageUrl}</span>
              </>
            ) : null}
          </div>
          <div className={styles.actions}>
            <Button onClick={() => dispatch({ type: 'close' })}>{m.cancel}</Button>
            <Button
              type="primary"
              disabled={!state.pending}
              onClick={() => dispatch({ type: 'confirm' })}
              data-testid="image-confirm"
            >
              {m.confirm}
            </Button>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className={styles.root}>
      <button
        ref={triggerRef}
        type="button"
        className={`${styles.trigger} ${state.open ? styles.triggerOpen : ''}`}
        aria-expanded={state.open}
        aria-controls={state.open ? panelId : undefined}
        onClick={() => dispatch({ type: state.open ? 'close' : 'open' })}
        data-testid="image-trigger"
      >
        {selected ? (
          <span className={styles.value}>
            <span className={styles.valueName} data-testid="image-selected">
              {imageSummary(selected)}
            </span>
            <span className={styles.valueMeta}>
              {selected.osInfo} · {selected.imageUrl}
            </span>
          </span>
        ) : (
          <span className={styles.placeholder}>{m.placeholder}</span>
        )}
        <span className={styles.triggerAction}>
          {selected ? m.change : null}
          <DownOutlined className={state.open ? styles.chevronUp : styles.chevron} />
        </span>
      </button>
      {panel}
    </div>
  );
}
