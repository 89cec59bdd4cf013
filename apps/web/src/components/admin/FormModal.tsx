import { Modal } from 'antd';
import { type ReactNode, useState } from 'react';

/** Which row a create/edit form is open for: 'new', a row, or none (closed). */
export type Editing<T> = T | 'new' | null;

/** The open/close state of a create/edit form, and the id to save under (undefined when creating). */
export function useEditing<T extends { id: number }>() {
  const [editing, setEditing] = useState<Editing<T>>(null);
  return {
    editing,
    setEditing,
    close: () => setEditing(null),
    id: editing === 'new' || editing === null ? undefined : editing.id,
  };
}

/** The create/edit modal of the admin screens: titled by whether it creates, closed on cancel. */
export function FormModal({
  editing,
  createTitle,
  editTitle,
  onClose,
  onOk,
  saving,
  okText,
  cancelText,
  width,
  okTestId,
  children,
}: {
  editing: unknown;
  createTitle: string;
  editTitle: string;
  onClose: () => void;
  onOk: () => void;
  saving: boolean;
  okText: string;
  cancelText: string;
  width?: number;
  okTestId?: string;
  children: ReactNode;
}) {
  return (
    <Modal
      open={editing !== null}
      title={editing === 'new' ? createTitle : editTitle}
      onCancel={onClose}
      onOk={onOk}
      okText={okText}
      cancelText={cancelText}
      confirmLoading={saving}
      okButtonProps={okTestId ? ({ 'data-testid': okTestId } as Record<string, string>) : undefined}
      width={width}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}
