import { type SaveImageRequest, saveImageRequestSchema } from '@gpu/shared/user-images';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Input, Modal } from 'antd';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { t } from '../../../locales/zh-CN';
import { imageKeys, saveImage } from '../api/user-images';

const s = t.userImages;

export interface SaveImageDialogProps {
  /** The powered-off instance whose system disk is saved. */
  inst: { uuid: string | number; name: string; status: string };
  onClose: () => void;
  /** After the server took it (the instance is now SAVING_IMAGE): refresh the instance list. */
  onSaved: () => void;
}

/** 保存镜像: name and description; the save runs as a job, its progress shows on 我的镜像. */
export default function SaveImageDialog({ inst, onClose, onSaved }: SaveImageDialogProps) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SaveImageRequest>();
  const mutation = useMutation({
    mutationFn: (body: SaveImageRequest) => saveImage(inst.uuid, body),
    onSuccess: () => {
      void notify('success', s.saving);
      void queryClient.invalidateQueries({ queryKey: imageKeys.list() });
      onSaved();
      onClose();
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.saveFailed, retry: s.saveFailed })),
  });
  const stopped = inst.status === 'STOPPED';
  return (
    <Modal
      open
      title={s.saveTitle(inst.name)}
      okText={s.saveOk}
      cancelText={t.common.cancel}
      confirmLoading={mutation.isPending}
      okButtonProps={{ disabled: !stopped, id: 'save-image-confirm' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={480}
    >
      <div data-testid="save-image-dialog">
        {stopped ? (
          <Alert type="info" showIcon title={s.saveHint} style={{ marginBottom: 16 }} />
        ) : (
          <Alert type="warning" showIcon title={s.saveNeedsStop} style={{ marginBottom: 16 }} />
        )}
        <Form<SaveImageRequest>
          form={form}
          layout="vertical"
          onFinish={(v) => mutation.mutate(saveImageRequestSchema.parse(v))}
        >
          <Form.Item name="name" label={s.name} rules={[schemaRule(saveImageRequestSchema, 'name')]}>
            <Input placeholder={s.namePlaceholder} maxLength={50} data-testid="save-image-name" />
          </Form.Item>
          <Form.Item
            name="description"
            label={s.description}
            rules={[schemaRule(saveImageRequestSchema, 'description')]}
          >
            <Input.TextArea
              rows={3}
              placeholder={s.descriptionPlaceholder}
              maxLength={200}
              data-testid="save-image-description"
            />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
