import { Form, Input, Modal } from 'antd';
import type { ReactNode } from 'react';
import { ta } from '../../../locales/zh-CN.admin';

const i18n = ta.adminOps;

/**
 * The confirm step of a destructive admin action: names what it acts on and asks for a reason
 * (required, at most 200 characters; the user reads it in their console).
 */
export function ReasonModal({
  open,
  title,
  target,
  okText,
  danger,
  loading,
  onSubmit,
  onCancel,
}: {
  open: boolean;
  title: ReactNode;
  target: ReactNode;
  okText: string;
  danger?: boolean;
  loading?: boolean;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={i18n.cancel}
      okButtonProps={{ danger, loading, ...{ 'data-testid': 'reason-ok' } }}
      onOk={() => void form.validateFields().then((v) => onSubmit(v.reason.trim()))}
      onCancel={onCancel}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      <p>{target}</p>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="reason"
          label={i18n.reason}
          rules={[
            { required: true, whitespace: true, message: i18n.reasonRequired },
            { max: 200, message: i18n.reasonMax },
          ]}
        >
          <Input.TextArea
            rows={3}
            placeholder={i18n.reasonPlaceholder}
            maxLength={200}
            showCount
            data-testid="reason-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
