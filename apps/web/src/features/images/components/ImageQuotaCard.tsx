import { type UserImageQuota, userImageQuotaSchema } from '@gpu/shared/user-images';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, InputNumber, Space } from 'antd';
import { useEffect } from 'react';
import { useAdminCan } from '../../../lib/admin-access';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { t } from '../../../locales/zh-CN';
import { imageKeys, putImageQuota, useImageQuota } from '../api/user-images';

const s = t.userImages;

/** Back office: how many saved images, and how many GB in all, each user may keep (audited). */
export default function ImageQuotaCard() {
  const quota = useImageQuota();
  const canWrite = useAdminCan('catalogue:write');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<UserImageQuota>();
  useEffect(() => {
    if (quota.data) form.setFieldsValue(quota.data);
  }, [quota.data, form]);
  const mutation = useMutation({
    mutationFn: putImageQuota,
    onSuccess: (saved) => {
      queryClient.setQueryData(imageKeys.quota(), saved);
      void notify('success', s.quotaSaved);
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.quotaFailed, retry: s.quotaFailed })),
  });
  return (
    <Card size="small" title={s.quotaTitle} style={{ marginBottom: 16 }} data-testid="image-quota">
      <p style={{ margin: '0 0 12px', color: '#6b7280', fontSize: 13 }}>{s.quotaHint}</p>
      <Form<UserImageQuota>
        form={form}
        layout="inline"
        disabled={!canWrite || quota.isPending}
        onFinish={(v) => mutation.mutate(userImageQuotaSchema.parse(v))}
      >
        <Space wrap>
          <Form.Item
            name="maxCount"
            label={s.maxCount}
            rules={[schemaRule(userImageQuotaSchema, 'maxCount')]}
          >
            <InputNumber min={0} precision={0} data-testid="quota-count" />
          </Form.Item>
          <Form.Item
            name="maxTotalGb"
            label={s.maxTotalGb}
            rules={[schemaRule(userImageQuotaSchema, 'maxTotalGb')]}
          >
            <InputNumber min={0} precision={0} data-testid="quota-gb" />
          </Form.Item>
          {canWrite ? (
            <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="quota-save">
              {s.save}
            </Button>
          ) : null}
        </Space>
      </Form>
    </Card>
  );
}
