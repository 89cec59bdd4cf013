import { Form, Input, InputNumber, Modal } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { useBalanceAdjustment } from '../api/balance';

const b = ta.adminOps.balance;
const newRequestId = () => `adj-${crypto.randomUUID()}`;

/**
 * A signed adjustment with a reason (a ledger entry and an audit row on the server). One request
 * id per opened dialog, so a double click or a retry after a lost answer counts once.
 */
export function AdjustBalanceModal({
  user,
  onClose,
}: {
  user: { id: number; phone: string } | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ amount: number; reason: string }>();
  const [requestId, setRequestId] = useState(newRequestId);
  const adjust = useBalanceAdjustment();
  return (
    <Modal
      open={user !== null}
      title={b.adjustTitle}
      okText={b.adjustConfirm}
      cancelText={ta.adminOps.cancel}
      okButtonProps={{ loading: adjust.isPending }}
      onCancel={onClose}
      afterClose={() => {
        form.resetFields();
        setRequestId(newRequestId());
      }}
      destroyOnHidden
      onOk={() =>
        void form.validateFields().then((v) => {
          if (!user) return;
          adjust.mutate(
            { userId: user.id, amount: v.amount, reason: v.reason.trim(), requestId },
            {
              onSuccess: () => {
                void notify('success', b.adjustDone);
                onClose();
              },
              onError: (err) =>
                void notify('error', err instanceof ApiError ? err.message : ta.adminOps.actionFailed),
            },
          );
        })
      }
    >
      <p>{user ? b.adjustUser(user.phone) : null}</p>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="amount"
          label={b.amount}
          extra={b.amountHint}
          rules={[
            { required: true, message: b.amountRequired },
            { validator: (_, v) => (v === 0 ? Promise.reject(new Error(b.amountZero)) : Promise.resolve()) },
          ]}
        >
          <InputNumber style={{ width: '100%' }} precision={2} min={-1_000_000} max={1_000_000} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={b.adjustReason}
          rules={[
            { required: true, whitespace: true, message: b.adjustReasonRequired },
            { max: 200, message: ta.adminOps.reasonMax },
          ]}
        >
          <Input.TextArea rows={2} maxLength={200} placeholder={b.adjustReasonPlaceholder} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
