import { Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';

/** A small row action that asks before it acts (delete, disable, reset…); danger unless told. */
export function ConfirmButton({
  title,
  onConfirm,
  children,
  okText,
  cancelText,
  link = false,
  danger = true,
}: {
  title: string;
  onConfirm: () => unknown;
  children: ReactNode;
  okText?: string;
  cancelText?: string;
  link?: boolean;
  danger?: boolean;
}) {
  return (
    <Popconfirm title={title} okText={okText} cancelText={cancelText} onConfirm={onConfirm}>
      <Button type={link ? 'link' : undefined} size="small" danger={danger}>
        {children}
      </Button>
    </Popconfirm>
  );
}
