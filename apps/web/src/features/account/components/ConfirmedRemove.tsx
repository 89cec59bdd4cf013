import { DeleteOutlined } from '@ant-design/icons';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';

/**
 * A small danger button that asks first, then removes (an SSH key, an access token) and
 * refreshes the list it came from: the server's message on success, a Chinese failure otherwise.
 */
export function ConfirmedRemove(props: {
  remove: () => Promise<string>;
  listKey: QueryKey;
  title: string;
  description: ReactNode;
  label: string;
  cancel: string;
  done: string;
  failed: string;
  testId: string;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: props.remove,
    onSuccess: (message) => {
      void notify('success', message || props.done);
      void queryClient.invalidateQueries({ queryKey: props.listKey });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: props.failed, retry: props.failed })),
  });
  return (
    <Popconfirm
      title={props.title}
      description={props.description}
      onConfirm={() => mutation.mutateAsync()}
      okText={props.label}
      okButtonProps={{ danger: true }}
      cancelText={props.cancel}
    >
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        loading={mutation.isPending}
        data-testid={props.testId}
      >
        {props.label}
      </Button>
    </Popconfirm>
  );
}
