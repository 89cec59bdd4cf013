import { extraPortsSchema, INSTANCE_EXTRA_PORTS_MAX } from '@gpu/shared/instance-ports';
import { Select } from 'antd';
import { t } from '../locales/zh-CN';

const i18n = t.extraPorts;

/** The typed values as ports, and the first broken rule (the shared schema's message) or null. */
export function parseExtraPorts(values: string[]): { ports: number[]; error: string | null } {
  const ports = values.map((v) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN));
  const check = extraPortsSchema.safeParse(ports);
  return { ports, error: check.success ? null : (check.error.issues[0]?.message ?? null) };
}

/** Suggested ports with what usually listens there. */
const OPTIONS = Object.entries(i18n.known).map(([port, name]) => ({ value: port, label: `${port} ${name}` }));

/**
 * Up to three container ports typed (Enter, comma or space) or picked from the usual ones;
 * the create form and the 端口 editor share it, with the server's rules from the shared schema.
 */
export function ExtraPortsField({
  value,
  onChange,
  error,
  testId,
}: {
  value: string[];
  onChange: (value: string[]) => void;
  error: string | null;
  testId: string;
}) {
  return (
    <Select
      mode="tags"
      value={value}
      onChange={(next: string[]) => onChange(next.map((v) => v.trim()).filter(Boolean))}
      options={OPTIONS}
      maxCount={INSTANCE_EXTRA_PORTS_MAX}
      tokenSeparators={[',', '，', ' ']}
      placeholder={i18n.placeholder}
      status={error ? 'error' : undefined}
      aria-label={i18n.label}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}
