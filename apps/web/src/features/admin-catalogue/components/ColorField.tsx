import { ColorPicker } from 'antd';

/** A #RRGGBB form field. */
export function ColorField({ value, onChange }: { value?: string; onChange?: (hex: string) => void }) {
  return (
    <ColorPicker
      value={value}
      showText
      disabledAlpha
      format="hex"
      onChange={(color) => onChange?.(color.toHexString().slice(0, 7))}
    />
  );
}
