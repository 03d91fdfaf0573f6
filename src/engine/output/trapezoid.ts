// Time to cover one move with a trapezoidal speed profile: accelerate from the entry speed, cruise,
// decelerate to the exit speed; a triangle when the move is too short to reach cruise speed.

export function trapezoidTime(length: number, entry: number, cruise: number, exit: number, accel: number): number {
  if (length <= 0) return 0;
  if (!(accel > 0) || !Number.isFinite(accel)) return length / cruise;
  const twoA = 2 * accel;
  const accelDist = (cruise * cruise - entry * entry) / twoA;
  const decelDist = (cruise * cruise - exit * exit) / twoA;
  if (accelDist + decelDist <= length) {
    return (cruise - entry) / accel + (cruise - exit) / accel + (length - accelDist - decelDist) / cruise;
  }
  // triangle: the peak where the acceleration and deceleration ramps meet
  const peakSq = (twoA * length + entry * entry + exit * exit) / 2;
  const hi = Math.max(entry, exit);
  if (peakSq <= hi * hi) {
    // entry and exit too far apart for this length (should not happen after look-ahead): a straight ramp
    return (2 * length) / (entry + exit);
  }
  const peak = Math.sqrt(peakSq);
  return (peak - entry) / accel + (peak - exit) / accel;
}
