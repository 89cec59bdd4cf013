import { type AdminTenant, TENANT_CODE_RULE } from '@gpu/shared/tenant-admin';
import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { Button, Col, Drawer, Form, Input, Row, Select, Space, Switch, Tabs } from 'antd';
import { useEffect } from 'react';
import { useAdminCan } from '../../../lib/admin-access';
import { ta } from '../../../locales/zh-CN.admin';
import { useRegions } from '../api/catalogue';
import { useSaveTenant } from '../api/tenants';
import { ColorField } from './ColorField';
import { HeroPreview } from './HeroPreview';
import { ImageUploadField } from './ImageUploadField';
import { useAdminLayout } from './responsive';

const c = ta.adminCatalogue;
const m = c.tenants;

const {
  tenantId: _i,
  tenantCode: _c,
  tenantName: _n,
  domain: _d,
  ...DEFAULT_SETTINGS
} = DEFAULT_TENANT_CONFIG;

const color = (name: string[], label: string) => (
  <Col xs={12} md={8} key={name.join('.')}>
    <Form.Item name={['config', ...name]} label={label}>
      <ColorField />
    </Form.Item>
  </Col>
);

/** Create or edit a tenant: identity and domains, brand images, theme, homepage texts, contact, footer. */
export function TenantFormDrawer({
  tenant,
  open,
  onClose,
}: {
  tenant: AdminTenant | null;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm();
  const save = useSaveTenant();
  // A tenant operator edits its branding but never sees regions (GET /admin/regions is 403 to it):
  // the field stays in the form, hidden, so saving keeps the stored regions.
  const canRegions = useAdminCan('catalogue:read');
  const regions = useRegions(canRegions);
  const { drawerWidth } = useAdminLayout();
  const look = Form.useWatch('config', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      tenant
        ? { ...tenant, active: tenant.status === 'ACTIVE' }
        : { code: '', name: '', domains: [], active: true, config: DEFAULT_SETTINGS },
    );
  }, [open, tenant, form]);

  const submit = async () => {
    const { active, ...v } = await form.validateFields();
    const body = { ...v, status: active ? 'ACTIVE' : 'DISABLED' };
    await save.mutateAsync({ id: tenant?.id, body });
    onClose();
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={drawerWidth}
      title={tenant ? m.editTitle : m.createTitle}
      forceRender
      extra={
        <Space>
          <Button onClick={onClose}>{c.cancel}</Button>
          <Button type="primary" onClick={submit} loading={save.isPending} data-testid="tenant-save">
            {c.save}
          </Button>
        </Space>
      }
    >
      <HeroPreview look={look ?? {}} />
      <Form form={form} layout="vertical" style={{ marginTop: 16 }}>
        <Tabs
          items={[
            {
              key: 'basic',
              label: m.tabBasic,
              forceRender: true,
              children: (
                <Row gutter={12}>
                  <Col xs={24} md={12}>
                    <Form.Item name="code" label={m.code} rules={[{ required: true, ...TENANT_CODE_RULE }]}>
                      <Input maxLength={32} disabled={!!tenant?.isDefault} data-testid="tenant-form-code" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12}>
                    <Form.Item
                      name="name"
                      label={m.name}
                      rules={[{ required: true, message: c.rules.tenantName }]}
                    >
                      <Input maxLength={64} data-testid="tenant-form-name" />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name="domains" label={m.domains} extra={m.domainsHelp}>
                      <Select
                        mode="tags"
                        open={false}
                        tokenSeparators={[',', ' ', '，']}
                        data-testid="tenant-form-domains"
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item
                      name={['config', 'visibleRegionResources']}
                      hidden={!canRegions}
                      label={m.regions}
                      extra={m.regionsHelp}
                    >
                      <Select
                        mode="multiple"
                        options={(regions.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name="active" label={m.status} valuePropName="checked">
                      <Switch
                        checkedChildren={c.enabled}
                        unCheckedChildren={c.disabled}
                        disabled={!!tenant?.isDefault}
                      />
                    </Form.Item>
                  </Col>
                </Row>
              ),
            },
            {
              key: 'brand',
              label: m.tabBrand,
              forceRender: true,
              children: (
                <>
                  <Form.Item name={['config', 'logoUrl']} label={m.logo}>
                    <ImageUploadField testId="tenant-logo-file" />
                  </Form.Item>
                  <Form.Item name={['config', 'logoDarkUrl']} label={m.logoDark}>
                    <ImageUploadField />
                  </Form.Item>
                  <Form.Item name={['config', 'faviconUrl']} label={m.favicon}>
                    <ImageUploadField />
                  </Form.Item>
                  <Row gutter={12}>
                    {color(['theme', 'primaryColor'], m.primaryColor)}
                    {color(['theme', 'secondaryColor'], m.secondaryColor)}
                    {color(['theme', 'backgroundColor'], m.backgroundColor)}
                    {color(['theme', 'gradientStart'], m.gradientStart)}
                    {color(['theme', 'gradientEnd'], m.gradientEnd)}
                  </Row>
                </>
              ),
            },
            {
              key: 'home',
              label: m.tabHome,
              forceRender: true,
              children: (
                <Row gutter={12}>
                  <Col xs={24}>
                    <Form.Item
                      name={['config', 'homepage', 'title']}
                      label={m.homeTitle}
                      rules={[{ required: true, message: c.rules.heroTitle }]}
                    >
                      <Input maxLength={100} data-testid="tenant-form-title" />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name={['config', 'homepage', 'subtitle']} label={m.homeSubtitle}>
                      <Input maxLength={200} />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name={['config', 'homepage', 'description']} label={m.description}>
                      <Input.TextArea maxLength={500} rows={3} />
                    </Form.Item>
                  </Col>
                  {color(['homepage', 'titleColor'], m.titleColor)}
                  {color(['homepage', 'subtitleColor'], m.subtitleColor)}
                </Row>
              ),
            },
            {
              key: 'contact',
              label: m.tabContact,
              forceRender: true,
              children: (
                <Row gutter={12}>
                  <Col xs={24} md={12}>
                    <Form.Item name={['config', 'contact', 'phone']} label={m.phone}>
                      <Input maxLength={32} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={12}>
                    <Form.Item
                      name={['config', 'contact', 'email']}
                      label={m.email}
                      rules={[{ type: 'email', message: c.rules.email }]}
                    >
                      <Input maxLength={100} />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name={['config', 'contact', 'supportUrl']} label={m.supportUrl}>
                      <Input maxLength={300} />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name={['config', 'footer', 'beianNumber']} label={m.beian}>
                      <Input maxLength={64} />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name={['config', 'footer', 'wechatOfficialQr']} label={m.officialQr}>
                      <ImageUploadField />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item name={['config', 'footer', 'wechatServiceQr']} label={m.serviceQr}>
                      <ImageUploadField />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item
                      name={['config', 'enquiryProducts']}
                      label={m.enquiryProducts}
                      extra={m.enquiryProductsHelp}
                    >
                      <Select mode="tags" open={false} tokenSeparators={[',', '，']} maxCount={20} />
                    </Form.Item>
                  </Col>
                  <Col xs={24}>
                    <Form.Item
                      name={['config', 'aiNavigationUrl']}
                      label={m.aiNavigationUrl}
                      extra={m.aiNavigationUrlHelp}
                    >
                      <Input maxLength={2000} placeholder="https://" />
                    </Form.Item>
                  </Col>
                </Row>
              ),
            },
          ]}
        />
      </Form>
    </Drawer>
  );
}
