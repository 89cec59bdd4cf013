import { DeleteOutlined } from '@ant-design/icons';
import type { UserImage } from '@gpu/shared/user-images';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm } from 'antd';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { deleteUserImage, imageKeys } from '../api/user-images';

const s = t.userImages;

/** 删除 behind a confirmation; refused (the server says why) while it is saved or used by a create. */
export function DeleteImageButton({ image }: { image: UserImage }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => deleteUserImage(image.id),
    onSuccess: (message) => void notify('success', message || s.deleted),
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.deleteFailed, retry: s.deleteFailed })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: imageKeys.list() }),
  });
  return (
    <Popconfirm
      title={s.deleteConfirm(image.name)}
      description={s.deleteHint}
      onConfirm={() => mutation.mutateAsync()}
      okText={s.delete}
      okButtonProps={{ danger: true, id: 'image-delete-confirm' }}
      cancelText={t.common.cancel}
    >
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        loading={mutation.isPending}
        disabled={image.status === 'SAVING'}
        data-testid={`image-delete-${image.id}`}
      >
        {s.delete}
      </Button>
    </Popconfirm>
  );
}
