/** A decorative GPU board drawn in white on the tenant's gradient (shown without a heroImage). */
export function HeroIllustration({ className }: { className?: string }) {
  const fan = (cx: number) => (
    <g transform={`translate(${cx} 150)`}>
      <circle r="58" fill="rgba(255,255,255,0.08)" stroke="rgba(255,255,255,0.55)" strokeWidth="3" />
      <circle r="44" fill="none" stroke="rgba(255,255,255,0.18)" strokeWidth="2" />
      {[0, 60, 120, 180, 240, 300].map((deg) => (
        <path
          key={deg}
          d="M0 -8 C 14 -22, 34 -30, 40 -14 C 28 -12, 14 -6, 0 -8 Z"
          fill="rgba(255,255,255,0.45)"
          transform={`rotate(${deg})`}
        />
      ))}
      <circle r="12" fill="rgba(255,255,255,0.9)" />
    </g>
  );
  return (
    <svg className={className} viewBox="0 0 440 340" role="presentation" aria-hidden>
      <defs>
        <linearGradient id="hero-board" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="rgba(255,255,255,0.28)" />
          <stop offset="1" stopColor="rgba(255,255,255,0.08)" />
        </linearGradient>
      </defs>
      {/* back card, offset */}
      <rect x="56" y="40" width="360" height="220" rx="22" fill="rgba(255,255,255,0.08)" />
      {/* board */}
      <rect
        x="24"
        y="64"
        width="372"
        height="172"
        rx="20"
        fill="url(#hero-board)"
        stroke="rgba(255,255,255,0.5)"
        strokeWidth="2"
      />
      {fan(118)}
      {fan(280)}
      {/* heat-sink fins */}
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <rect
          key={i}
          x={352 + (i % 2) * 14}
          y={92 + Math.floor(i / 2) * 40}
          width="8"
          height="28"
          rx="4"
          fill="rgba(255,255,255,0.35)"
        />
      ))}
      {/* PCIe connector */}
      <rect x="60" y="236" width="180" height="14" rx="3" fill="rgba(255,255,255,0.55)" />
      {[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => (
        <rect key={i} x={68 + i * 15} y="250" width="8" height="10" rx="1" fill="rgba(255,255,255,0.4)" />
      ))}
      {/* floating metric bars */}
      <g transform="translate(300 274)">
        <rect width="124" height="52" rx="12" fill="rgba(255,255,255,0.92)" />
        <rect x="14" y="14" width="56" height="8" rx="4" fill="rgba(31,34,51,0.18)" />
        <rect x="14" y="30" width="96" height="8" rx="4" fill="rgba(31,34,51,0.08)" />
        <rect x="14" y="30" width="72" height="8" rx="4" fill="var(--tenant-primary)" />
      </g>
      <g transform="translate(0 8)">
        <rect width="112" height="44" rx="12" fill="rgba(255,255,255,0.92)" />
        <circle cx="22" cy="22" r="8" fill="#22c55e" />
        <rect x="38" y="14" width="58" height="7" rx="3.5" fill="rgba(31,34,51,0.18)" />
        <rect x="38" y="26" width="40" height="6" rx="3" fill="rgba(31,34,51,0.1)" />
      </g>
    </svg>
  );
}
