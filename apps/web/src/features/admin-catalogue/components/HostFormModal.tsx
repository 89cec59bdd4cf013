import type { HostView } from '@gpu/shared/hosts';
import { Button, Col, Divider, Form, Input, InputNumber, Modal, Row, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { ta } from '../../../locales/zh-CN.admin';
import { useRegions } from '../api/catalogue';
import { useSaveHost } from '../api/hosts';

const c = ta.adminCatalogue;
const h = c.hosts;

type Values = Record<string, unknown> & {
  driver: 'simulated' | 'docker';
  settings?: Record<string, unknown> & { gpus?: { model?: string; memoryGb?: number; count?: number } };
  hourlyPrice?: number | null;
};

/** A PEM field: paste, or read a certificate file into it. */
function PemInput({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  return (
    <>
      <Input.TextArea
        rows={2}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        spellCheck={false}
      />
      <Button
        size="small"
        style={{ marginTop: 4 }}
        onClick={() => {
          const input = document.createElement('input');
          input.type = 'file';
          input.accept = '.pem,.crt,.key,.cer';
          input.onchange = () => void input.files?.[0]?.text().then((text) => onChange?.(text));
          input.click();
        }}
      >
        {h.pickFile}
      </Button>
    </>
  );
}

/** Hosts are registered with their driver settings (docker: connection and TLS; simulated). */
export function HostFormModal({
  host,
  open,
  onClose,
}: {
  host: HostView | null;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const regions = useRegions();
  const save = useSaveHost();
  const driver = Form.useWatch('driver', form);
  const connection = Form.useWatch(['settings', 'connection'], form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      host
        ? ({ ...host, driver: host.driver as Values['driver'], settings: host.settings } as Values)
        : {
            driver: 'simulated',
            portRangeStart: 30000,
            portRangeEnd: 30199,
            settings: {
              latencyMs: 0,
              failureRate: 0,
              unreachable: false,
              connection: 'socket',
              gpus: { memoryGb: 24, count: 8 },
            },
          },
    );
  }, [open, host, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const { hourlyPrice, driver: d, settings = {}, ...columns } = v;
    const gpus = settings.gpus?.model ? settings.gpus : undefined;
    const base =
      d === 'docker'
        ? {
            connection: settings.connection,
            socketPath: settings.socketPath || undefined,
            host: settings.host || undefined,
            port: settings.port ?? undefined,
            tls: (settings.tls as { ca?: string } | undefined)?.ca ? settings.tls : undefined,
            ssh: (settings.ssh as { username?: string } | undefined)?.username ? settings.ssh : undefined,
            allowInsecureTcp: settings.allowInsecureTcp ?? false,
          }
        : {
            latencyMs: settings.latencyMs ?? 0,
            failureRate: settings.failureRate ?? 0,
            unreachable: settings.unreachable ?? false,
          };
    // Over the stored settings, so fields this form does not show (bind address, probe image,
    // timeouts, image list) survive an edit.
    const { gpus: _old, ...kept } = (host?.settings ?? {}) as Record<string, unknown>;
    const body: Record<string, unknown> = {
      ...columns,
      settings: { ...kept, ...base, ...(gpus ? { gpus } : {}) },
    };
    if (!host) body.driver = d;
    if (hourlyPrice !== undefined && hourlyPrice !== null) body.sku = { hourlyPrice };
    await save.mutateAsync({ id: host?.id, body });
    onClose();
  };

  return (
    <Modal
      open={open}
      title={host ? h.editTitle : h.createTitle}
      onCancel={onClose}
      onOk={submit}
      okText={c.save}
      cancelText={c.cancel}
      confirmLoading={save.isPending}
      width={760}
      forceRender
    >
      <Form form={form} layout="vertical">
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={h.name} rules={[{ required: true, message: c.rules.hostName }]}>
              <Input maxLength={64} data-testid="host-name" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="regionId" label={h.region} rules={[{ required: true, message: c.rules.region }]}>
              <Select
                data-testid="host-region"
                options={(regions.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="driver" label={h.driver}>
              <Select
                disabled={!!host}
                options={['simulated', 'docker'].map((d) => ({ value: d, label: h.drivers[d] }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="publicAddress" label={h.publicAddress} extra={h.publicAddressHelp}>
              <Input maxLength={253} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="cpuModel" label={h.cpuModel}>
              <Input maxLength={128} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="cpuCores" label={h.cpuCores}>
              <InputNumber min={0} max={4096} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="memoryGb" label={h.memoryGb}>
              <InputNumber min={0} max={65536} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="portRangeStart" label={h.portStart}>
              <InputNumber min={1024} max={65535} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="portRangeEnd" label={h.portEnd}>
              <InputNumber min={1024} max={65535} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>
          {h.gpuSection}
        </Divider>
        <Row gutter={12}>
          <Col xs={24} md={10}>
            <Form.Item name={['settings', 'gpus', 'model']} label={h.gpuModel}>
              <Input maxLength={64} placeholder="RTX 4090" data-testid="host-gpu-model" />
            </Form.Item>
          </Col>
          <Col xs={12} md={7}>
            <Form.Item name={['settings', 'gpus', 'memoryGb']} label={h.gpuMemory}>
              <InputNumber min={1} max={1024} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={7}>
            <Form.Item name={['settings', 'gpus', 'count']} label={h.gpuCount}>
              <InputNumber min={0} max={64} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        {driver === 'docker' ? (
          <Row gutter={12}>
            <Col xs={24} md={8}>
              <Form.Item name={['settings', 'connection']} label={h.connection}>
                <Select
                  options={['socket', 'tcp', 'ssh'].map((x) => ({ value: x, label: h.connections[x] }))}
                />
              </Form.Item>
            </Col>
            {connection === 'socket' ? (
              <Col xs={24} md={16}>
                <Form.Item name={['settings', 'socketPath']} label={h.socketPath}>
                  <Input placeholder="/var/run/docker.sock" />
                </Form.Item>
              </Col>
            ) : (
              <>
                <Col xs={16} md={10}>
                  <Form.Item name={['settings', 'host']} label={h.dockerHost}>
                    <Input maxLength={253} />
                  </Form.Item>
                </Col>
                <Col xs={8} md={6}>
                  <Form.Item name={['settings', 'port']} label={h.dockerPort}>
                    <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              </>
            )}
            {connection === 'tcp' ? (
              <Col xs={24}>
                <p style={{ color: '#8c8fa3' }}>{h.tlsHelp}</p>
                <Form.Item name={['settings', 'tls', 'ca']} label={h.tlsCa}>
                  <PemInput />
                </Form.Item>
                <Form.Item name={['settings', 'tls', 'cert']} label={h.tlsCert}>
                  <PemInput />
                </Form.Item>
                <Form.Item name={['settings', 'tls', 'key']} label={h.tlsKey}>
                  <PemInput />
                </Form.Item>
              </Col>
            ) : null}
            {connection === 'ssh' ? (
              <>
                <Col xs={24} md={8}>
                  <Form.Item name={['settings', 'ssh', 'username']} label={h.sshUser}>
                    <Input maxLength={64} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={16}>
                  <Form.Item name={['settings', 'ssh', 'privateKey']} label={h.sshKey}>
                    <PemInput />
                  </Form.Item>
                </Col>
              </>
            ) : null}
          </Row>
        ) : (
          <Row gutter={12}>
            <Col xs={12} md={8}>
              <Form.Item name={['settings', 'latencyMs']} label={h.latency}>
                <InputNumber min={0} max={60000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name={['settings', 'failureRate']} label={h.failureRate}>
                <InputNumber min={0} max={1} step={0.05} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name={['settings', 'unreachable']} label={h.unreachableSim} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
        )}
        {host ? null : (
          <>
            <Divider titlePlacement="start" plain>
              {h.priceSection}
            </Divider>
            <Form.Item name="hourlyPrice" label={h.hourlyPrice}>
              <InputNumber min={0} max={100000} step={0.01} style={{ width: 200 }} data-testid="host-price" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
