/** 13800138000 → 138****8000; anything not an 11-digit phone shows as '-', never in full. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone || !/^\d{11}$/.test(phone)) return '-';
  return `${phone.slice(0, 3)}****${phone.slice(7)}`;
}
