interface ChallengeProgressProps {
  /** The bar's accessible name ('Progress on Try 3 new styles'). */
  label: string;
  progress: number;
  target: number;
}

/**
 * A progress bar and its count ('1/3'). Progress past the target (a fourth
 * new style) shows as full: the challenge asks for the target, no more.
 */
export function ChallengeProgress({ label, progress, target }: ChallengeProgressProps) {
  const shown = Math.min(Math.max(progress, 0), target);
  const percent = target > 0 ? (shown / target) * 100 : 100;
  return (
    <div className="challenge-progress">
      <div
        className="challenge-progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={target}
        aria-valuenow={shown}
        aria-valuetext={`${shown} of ${target}`}
      >
        <span className="challenge-progress__fill" style={{ width: `${percent}%` }} />
      </div>
      {/* The bar already says it to screen readers ('1 of 3'). */}
      <span className="challenge-progress__count" aria-hidden="true">
        {shown}/{target}
      </span>
    </div>
  );
}
