import { DragOutlined, ReloadOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Select } from 'antd';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { notify } from '../../../lib/feedback';
import { useSetTenant, useTenant } from '../../../lib/tenant-context';
import { t } from '../../../locales/zh-CN';
import { fetchTenantConfig } from '../api/get-tenant-config';
import { useTenantList } from '../api/get-tenant-list';
import {
  getDevTenantCode,
  getSwitcherPosition,
  type Position,
  setDevTenantCode,
  setSwitcherPosition,
} from '../dev-tenant';
import styles from './TenantSwitcher.module.css';

const s = t.tenantSwitcher;

/** Development only (SPEC.md §2): pick the tenant to preview; the choice and position persist. */
export default function TenantSwitcher() {
  const tenant = useTenant();
  const setTenant = useSetTenant();
  const list = useTenantList();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [position, setPosition] = useState<Position>(() => getSwitcherPosition() ?? { x: 16, y: 16 });
  const drag = useRef<{ dx: number; dy: number } | null>(null);

  useEffect(() => {
    if (list.isError) void notify('error', s.loadListFailed);
  }, [list.isError]);

  const load = async (code: string | null, failure: string, success: string) => {
    setBusy(true);
    try {
      const config = await fetchTenantConfig(code);
      setDevTenantCode(code);
      setTenant(config);
      void notify('success', success);
    } catch {
      void notify('error', failure);
    } finally {
      setBusy(false);
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    drag.current = { dx: event.clientX - position.x, dy: window.innerHeight - event.clientY - position.y };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    setPosition({
      x: Math.max(0, Math.min(window.innerWidth - 48, event.clientX - drag.current.dx)),
      y: Math.max(0, Math.min(window.innerHeight - 48, window.innerHeight - event.clientY - drag.current.dy)),
    });
  };
  const onPointerUp = () => {
    if (drag.current) setSwitcherPosition(position);
    drag.current = null;
  };

  return (
    <div className={styles.switcher} style={{ left: position.x, bottom: position.y }}>
      <div className={styles.bar}>
        <span
          className={styles.handle}
          title={s.dragHint}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
        >
          <DragOutlined />
        </span>
        <button type="button" className={styles.toggle} onClick={() => setOpen((v) => !v)}>
          <SwapOutlined /> {tenant.tenantName}
        </button>
      </div>
      {open && (
        <div className={styles.panel}>
          <div className={styles.title}>{s.title}</div>
          <Select
            className={styles.select}
            placeholder={s.placeholder}
            loading={list.isLoading || busy}
            value={getDevTenantCode() ?? tenant.tenantCode}
            options={(list.data ?? []).map((item) => ({
              value: item.tenantCode,
              label: `${item.tenantName}（${item.domain}）`,
            }))}
            onChange={(code: string) => {
              const name = list.data?.find((item) => item.tenantCode === code)?.tenantName ?? code;
              void load(code, s.switchFailed, s.switched(name));
            }}
          />
          <Button
            icon={<ReloadOutlined />}
            loading={busy}
            block
            onClick={() => void load(getDevTenantCode(), s.refreshFailed, s.refreshed)}
          >
            {s.refresh}
          </Button>
        </div>
      )}
    </div>
  );
}
