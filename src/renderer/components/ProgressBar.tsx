export function ProgressBar({
  value,
  label,
  tone = 'accent',
}: {
  value: number | null;
  label: string;
  tone?: 'accent' | 'success' | 'danger' | 'muted';
}) {
  const pct = value === null ? null : Math.max(0, Math.min(100, value));
  return (
    <div
      className={`progress progress-${tone}${pct === null ? ' progress-indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct === null ? undefined : Math.round(pct)}
    >
      <div className="progress-fill" style={pct === null ? undefined : { width: `${pct}%` }} />
    </div>
  );
}
