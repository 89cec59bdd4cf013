import { Form, Select } from 'antd';
import { useScopes } from '../api/promotions';

/** Region, GPU type and (optionally) tenant pickers; empty means "any". */
export function ScopeSelects({
  labels,
  tenant,
}: {
  labels: {
    regionId: string;
    gpuType: string;
    tenantId?: string;
    anyRegion: string;
    anyGpu: string;
    anyTenant?: string;
  };
  tenant?: boolean;
}) {
  const scopes = useScopes();
  return (
    <>
      {tenant ? (
        <Form.Item name="tenantId" label={labels.tenantId}>
          <Select
            allowClear
            placeholder={labels.anyTenant}
            loading={scopes.isPending}
            options={scopes.data?.tenants.map((x) => ({ value: x.id, label: x.name }))}
            data-testid="scope-tenant"
          />
        </Form.Item>
      ) : null}
      <Form.Item name="regionId" label={labels.regionId}>
        <Select
          allowClear
          placeholder={labels.anyRegion}
          loading={scopes.isPending}
          options={scopes.data?.regions.map((x) => ({ value: x.id, label: x.name }))}
          data-testid="scope-region"
        />
      </Form.Item>
      <Form.Item name="gpuType" label={labels.gpuType}>
        <Select
          allowClear
          showSearch
          placeholder={labels.anyGpu}
          loading={scopes.isPending}
          options={scopes.data?.gpuTypes.map((g) => ({ value: g, label: g }))}
          data-testid="scope-gpu"
        />
      </Form.Item>
    </>
  );
}
