import { Select } from 'antd';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ta } from '../../../locales/zh-CN.admin';
import { useTenants } from '../api/tenants';

/** The tenant a screen works on, kept in `?tenant=` (the first tenant until one is chosen). */
export function useChosenTenant() {
  const [params, setParams] = useSearchParams();
  const tenants = useTenants();
  const chosen = Number(params.get('tenant')) || undefined;
  const first = tenants.data?.[0]?.id;
  useEffect(() => {
    if (!chosen && first) setParams({ tenant: String(first) }, { replace: true });
  }, [chosen, first, setParams]);
  const picker = (
    <Select
      style={{ minWidth: 200 }}
      placeholder={ta.adminCatalogue.tenantHosts.pickTenant}
      value={chosen}
      loading={tenants.isLoading}
      onChange={(id) => setParams({ tenant: String(id) }, { replace: true })}
      options={(tenants.data ?? []).map((x) => ({ value: x.id, label: `${x.name}（${x.code}）` }))}
      data-testid="tenant-picker"
    />
  );
  return { tenantId: chosen, tenant: tenants.data?.find((x) => x.id === chosen), picker };
}
