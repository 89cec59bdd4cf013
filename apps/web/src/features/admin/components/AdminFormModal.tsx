import { ADMIN_ROLES, type AdminRole, TENANT_OPERATOR_ROLES } from '@gpu/shared/admin-access';
import { type AdminListItem, createAdminRequestSchema } from '@gpu/shared/admins';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { schemaRule } from '../../../lib/form-rules';
import { ta } from '../../../locales/zh-CN.admin';
import { useTenants } from '../../admin-catalogue';

const m = ta.adminStaff;

export interface AdminFormValues {
  username: string;
  role: AdminRole;
  tenantId: number | null;
}

const isTenantRole = (role: AdminRole | undefined) =>
  role !== undefined && (TENANT_OPERATOR_ROLES as readonly string[]).includes(role);

/**
 * Create (username, role, tenant) or edit (role, tenant) an administrator. A tenant can be
 * chosen only for 运营 and 只读: a tenant operator runs one storefront, never money or staff.
 */
export function AdminFormModal({
  editing,
  saving,
  onClose,
  onSave,
}: {
  editing: AdminListItem | 'new' | null;
  saving: boolean;
  onClose: () => void;
  onSave: (values: AdminFormValues) => void;
}) {
  const [form] = Form.useForm<AdminFormValues>();
  const role = Form.useWatch('role', form);
  const tenants = useTenants();
  const creating = editing === 'new';

  useEffect(() => {
    // A role that cannot be a tenant operator drops the tenant.
    if (role && !isTenantRole(role)) form.setFieldValue('tenantId', null);
  }, [role, form]);

  const initial: Partial<AdminFormValues> =
    editing && editing !== 'new'
      ? { username: editing.username, role: editing.role, tenantId: editing.tenantId }
      : { role: 'READONLY', tenantId: null };

  return (
    <Modal
      open={editing !== null}
      title={editing === 'new' || editing === null ? m.create : `${m.edit} ${editing.username}`}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={m.save}
      cancelText={m.cancel}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'admin-form-ok' } as Record<string, string>}
      destroyOnHidden
    >
      <Form<AdminFormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        preserve={false}
        onFinish={(v) => onSave({ ...v, tenantId: isTenantRole(v.role) ? (v.tenantId ?? null) : null })}
        data-testid="admin-form"
      >
        <Form.Item
          name="username"
          label={m.username}
          rules={creating ? [schemaRule(createAdminRequestSchema, 'username')] : []}
        >
          <Input disabled={!creating} autoComplete="off" data-testid="admin-username" />
        </Form.Item>
        <Form.Item name="role" label={m.role} rules={[schemaRule(createAdminRequestSchema, 'role')]}>
          <Select
            data-testid="admin-role-select"
            options={ADMIN_ROLES.map((r) => ({ value: r, label: ta.admin.roles[r] }))}
          />
        </Form.Item>
        <Form.Item name="tenantId" label={m.tenant} extra={m.tenantHint}>
          <Select
            data-testid="admin-tenant-select"
            disabled={!isTenantRole(role)}
            loading={tenants.isLoading}
            options={[
              { value: null, label: m.tenantNone },
              ...(tenants.data ?? []).map((x) => ({ value: x.id, label: x.name })),
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
