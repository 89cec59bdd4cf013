import { Button } from 'antd';
import { ConfirmButton } from '../../../components/admin/ConfirmButton';
import { ta } from '../../../locales/zh-CN.admin';

const c = ta.adminCatalogue;

/** Enable at once; disabling (it takes things off sale) asks first. */
export function ToggleAction({
  enabled,
  onChange,
  confirm = c.confirmDisable,
}: {
  enabled: boolean;
  onChange: (enabled: boolean) => void;
  confirm?: string;
}) {
  if (!enabled)
    return (
      <Button type="link" size="small" onClick={() => onChange(true)}>
        {c.enable}
      </Button>
    );
  return (
    <ConfirmButton
      title={confirm}
      okText={c.disable}
      cancelText={c.cancel}
      onConfirm={() => onChange(false)}
      link
    >
      {c.disable}
    </ConfirmButton>
  );
}

/** Delete, after a confirmation naming what goes. */
export function DeleteAction({ confirm, onDelete }: { confirm: string; onDelete: () => void }) {
  return (
    <ConfirmButton title={confirm} okText={c.delete} cancelText={c.cancel} onConfirm={onDelete} link>
      {c.delete}
    </ConfirmButton>
  );
}
