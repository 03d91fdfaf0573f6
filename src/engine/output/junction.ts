// Speed limits where one move meets the next (or starts from rest), as Marlin-family firmware plans
// them. Per-axis velocities are signed, in the order X, Y, Z, E, at each move's nominal speed; they
// are passed in small Float64Arrays of length 4 (the simulation reuses them, nothing is allocated).

/**
 * Speed a move may start or end at when the neighbouring move is at rest, under classic jerk.
 * Marlin's rule: the first axis over its jerk caps the speed at that axis' jerk value; every further
 * axis over its jerk scales the speed so that its own component stays within its jerk.
 */
export function restJerkSpeed(nominal: number, axisSpeed: Float64Array, jerk: Float64Array): number {
  let safe = nominal;
  let limited = false;
  for (let k = 0; k < 4; k++) {
    const s = Math.abs(axisSpeed[k]!);
    const j = jerk[k]!;
    if (s <= j) continue;
    if (!limited) {
      safe = j;
      limited = true;
    } else if (s * safe > j * nominal) {
      safe = (j * nominal) / s;
    }
  }
  return safe;
}

/**
 * Highest speed at the junction of two moves under classic (Marlin "classic jerk") rules.
 * The junction speed starts at the smaller nominal speed; the previous move's exit velocity is taken
 * at that speed, the next move's entry velocity at its own nominal speed; the per-axis jump (or, when
 * an axis reverses, the larger of the two magnitudes) must stay within that axis' jerk, and the
 * junction speed is scaled down until it does. When both moves could start from rest faster than
 * that, the junction is treated as a full stop and the next move's rest speed is used.
 */
export function jerkJunctionSpeed(
  prevNominal: number,
  prevAxis: Float64Array,
  prevRestSpeed: number,
  nominal: number,
  axis: Float64Array,
  restSpeed: number,
  jerk: Float64Array,
): number {
  let vj = prevNominal < nominal ? prevNominal : nominal;
  const exitScale = vj / prevNominal;
  let factor = 1;
  for (let k = 0; k < 4; k++) {
    const vExit = prevAxis[k]! * exitScale * factor;
    const vEntry = axis[k]! * factor;
    let jump: number;
    if (vExit > vEntry) {
      // coasting in one direction: the difference; reversing: the larger magnitude
      jump = vEntry > 0 || vExit < 0 ? vExit - vEntry : Math.max(vExit, -vEntry);
    } else {
      jump = vEntry < 0 || vExit > 0 ? vEntry - vExit : Math.max(-vExit, vEntry);
    }
    if (jump > jerk[k]!) factor *= jerk[k]! / jump;
  }
  vj *= factor;
  const threshold = vj * 0.99;
  if (prevRestSpeed > threshold && restSpeed > threshold) vj = restSpeed;
  return vj;
}

/**
 * Highest junction speed under junction deviation (Marlin 2 without classic jerk): the speed at which
 * a circle of radius deviation tangent to both moves can be followed at `accel`.
 * `dot` is the dot product of the two unit direction vectors (1 = straight on, -1 = reversal).
 */
export function deviationJunctionSpeed(dot: number, accel: number, deviation: number, prevNominal: number, nominal: number): number {
  const cap = Math.min(prevNominal, nominal);
  if (dot >= 0.999999) return cap;
  if (dot <= -0.999999) return 0;
  const sinHalf = Math.sqrt(0.5 * (1 + dot)); // sine of half the angle between the two moves' paths
  const v = Math.sqrt((accel * deviation * sinHalf) / (1 - sinHalf));
  return Math.min(v, cap);
}
