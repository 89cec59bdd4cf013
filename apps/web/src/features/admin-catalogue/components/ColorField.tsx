import { ColorPicker } from 'antd';

/** A colour form field: #RRGGBB, or #RRGGBBAA when made translucent. */
export function ColorField({ value, onChange }: { value?: string; onChange?: (hex: string) => void }) {
  return (
    <ColorPicker value={value} showText format="hex" onChange={(color) => onChange?.(color.toHexString())} />
  );
}
