// Start and end G-code templates for the printer catalogue, written for Stratum. Curly-brace
// placeholders ({first_layer_nozzle_temperature}, {bed_depth}, …; see TEMPLATE_PLACEHOLDERS) are filled
// by the G-code writer. Coordinates that depend on one printer's bed are filled in here, when the
// catalogue is built. Purge lines reset E before and after, so they extrude the same amount with
// absolute (M82) and relative (M83) extrusion.

const HEAT_START = [
  'M140 S{first_layer_bed_temperature} ; bed: start heating',
  'M104 S{first_layer_nozzle_temperature} ; nozzle: start heating',
];
const WAIT = [
  'M190 S{first_layer_bed_temperature} ; bed: wait until hot',
  'M109 S{first_layer_nozzle_temperature} ; nozzle: wait until hot',
];
/**
 * Before a bed probe: the bed at printing temperature (the mesh is measured on the bed as it will
 * print, and a probe's reading drifts with temperature), the nozzle at a probing temperature, warm
 * but below oozing, reached from above or below (M109 R waits for cooling too: a second print in a
 * row starts hot).
 */
const PROBE_HEAT = [
  'M140 S{first_layer_bed_temperature} ; bed: start heating',
  'M104 S170 ; nozzle: probing temperature, below oozing',
  'M190 S{first_layer_bed_temperature} ; bed: wait until hot, before the probe measures it',
  'M109 R170 ; nozzle: wait for the probing temperature, up or down',
];
const NOZZLE_START = ['M104 S{first_layer_nozzle_temperature} ; nozzle: start heating'];
const NOZZLE_WAIT = ['M109 S{first_layer_nozzle_temperature} ; nozzle: wait until hot'];

/**
 * Two purge strokes along Y near the left edge of a bed-slinger or box printer. Each lays the same
 * volume whatever the filament: 10 mm of 1.75 mm filament (24 mm³ over 100 mm), 3.77 mm of 2.85 mm.
 */
export function leftEdgePurgeStart(opts: { heatedBed?: boolean; leveling?: string; probes?: boolean; x?: number; y0?: number; y1?: number; filamentDiameter?: number } = {}): string {
  const { heatedBed = true, leveling, probes = false, x = 0.5, y0 = 20, y1 = 120, filamentDiameter = 1.75 } = opts;
  const e = Math.round(10 * (1.75 / filamentDiameter) ** 2 * 100) / 100;
  // `probes`: the levelling command measures the bed (G29 on Marlin), rather than loading a saved mesh
  const probing = probes && heatedBed;
  return [
    ...(probing ? PROBE_HEAT : heatedBed ? HEAT_START : NOZZLE_START),
    'G28 ; home all axes',
    ...(leveling ? [`${leveling} ; bed levelling`] : []),
    ...(probing ? NOZZLE_WAIT : heatedBed ? WAIT : NOZZLE_WAIT),
    'G92 E0 ; reset extruder',
    'G1 Z2.0 F3000 ; lift nozzle',
    `G1 X${x} Y${y0} F5000 ; to the purge line`,
    'G1 Z0.3 F600',
    `G1 X${x} Y${y1} E${e} F1200 ; purge stroke one`,
    'G92 E0',
    `G1 X${x + 0.5} Y${y1} F5000`,
    `G1 X${x + 0.5} Y${y0} E${e} F1200 ; purge stroke two`,
    'G92 E0 ; reset extruder',
    'G1 Z2.0 F3000 ; lift nozzle',
  ].join('\n');
}

/**
 * FlashForge's own firmware (Adventurer 3): its published command set waits for the bed with M7 and
 * the nozzle with M6 (it lists no M190 or M109, so a file that waits with those may start cold),
 * and M132 loads the home offsets stored in the printer. `x`, `y0`, `y1`: the purge strokes, in its
 * centre-origin coordinates.
 */
export function flashforgeStart(opts: { x: number; y0: number; y1: number }): string {
  const { x, y0, y1 } = opts;
  return [
    'M140 S{first_layer_bed_temperature} T0 ; bed: start heating',
    'M104 S{first_layer_nozzle_temperature} T0 ; nozzle: start heating',
    'G28 ; home all axes',
    'M132 X Y Z A B ; load the home offsets stored in the printer',
    'G90 ; absolute moves',
    'M7 T0 ; bed: wait until hot',
    'M6 T0 ; nozzle: wait until hot',
    'G92 E0 ; reset extruder',
    'G1 Z2.0 F3000 ; lift nozzle',
    `G1 X${x} Y${y0} F5000 ; to the purge line`,
    'G1 Z0.3 F600',
    `G1 X${x} Y${y1} E10 F1200 ; purge stroke one`,
    'G92 E0',
    `G1 X${x + 0.5} Y${y1} F5000`,
    `G1 X${x + 0.5} Y${y0} E10 F1200 ; purge stroke two`,
    'G92 E0 ; reset extruder',
    'G1 Z2.0 F3000 ; lift nozzle',
  ].join('\n');
}

/** FlashForge's own firmware: lower the bed, home X and Y (its origin is the bed centre), heaters and motors off with its commands. */
export function flashforgeEnd(): string {
  return [
    'G91 ; relative moves',
    'G1 E-2 F2700 ; pull back filament',
    'G1 Z10 F1200 ; move the bed away',
    'G90 ; absolute moves',
    'G28 X Y ; park: home X and Y',
    'M107 ; fan off',
    'M104 S0 T0 ; nozzle heater off',
    'M140 S0 T0 ; bed heater off',
    'M18 ; motors off',
  ].join('\n');
}

/** Purge along the front edge, outside the printable area (Prusa-style beds with a front margin). */
export function frontEdgePurgeStart(opts: { leveling: string; home?: string; y?: number }): string {
  const { leveling, home = 'G28', y = -3 } = opts;
  return [
    ...PROBE_HEAT,
    `${home} ; home all axes`,
    `${leveling} ; bed levelling`,
    ...NOZZLE_WAIT,
    'G92 E0 ; reset extruder',
    `G1 X0 Y${y} Z0.2 F3000 ; to the front edge, left corner`,
    'G1 X60 E8 F900 ; purge stroke one',
    'G92 E0',
    'G1 X100 E5 F900 ; purge stroke two',
    'G92 E0 ; reset extruder',
  ].join('\n');
}

/** Klipper printers whose configuration has a start macro; temperatures are waited for first. */
export function klipperMacroStart(macro: string): string {
  return [...HEAT_START, ...WAIT, `${macro} ; printer macro: homing, levelling, purge`, 'G92 E0 ; reset extruder'].join('\n');
}

/**
 * Klipper printers whose stock start macro heats by itself from the temperatures it is given (the
 * Creality K1s: it homes and probes with the nozzle below printing temperature, so nothing may heat
 * it fully before).
 */
export function klipperHeatingMacroStart(macro: string): string {
  return [`${macro} ; printer macro: heating, homing, levelling, purge`, 'G92 E0 ; reset extruder'].join('\n');
}

/** Delta printers: (0,0) is the bed centre; purge along a straight chord near the front edge. */
export function deltaStart(bedDiameter: number): string {
  const r = Math.round(bedDiameter * 0.4);
  return [
    ...HEAT_START,
    'G28 ; home all towers',
    ...WAIT,
    'G92 E0 ; reset extruder',
    `G1 X${-Math.round(r / 2)} Y${-r} Z2 F6000 ; to the purge line`,
    'G1 Z0.3 F600',
    `G1 X${Math.round(r / 2)} Y${-r} E10 F1200 ; purge stroke`,
    'G92 E0 ; reset extruder',
    'G1 Z2.0 F3000 ; lift nozzle',
  ].join('\n');
}

/** Ultimaker S-line: the printer heats, homes and primes itself from the Griffin header. */
export function griffinStart(): string {
  return ['G92 E0 ; reset extruder (the printer has heated and primed from the header)', 'G1 Z2.0 F1200 ; lift nozzle'].join('\n');
}

/** Cartesian printers whose bed moves in Y: lift, park the head and push the bed to the front. */
export function presentBedEnd(opts: { heatedBed?: boolean } = {}): string {
  return [
    'G91 ; relative moves',
    'G1 E-2 F2700 ; pull back filament',
    'G1 Z10 F3000 ; lift',
    'G90 ; absolute moves',
    'G1 X0 Y{bed_depth} F3000 ; present the print',
    'M106 S0 ; fan off',
    'M104 S0 ; nozzle heater off',
    ...(opts.heatedBed === false ? [] : ['M140 S0 ; bed heater off']),
    'M84 X Y E ; motors off',
  ].join('\n');
}

/** Printers whose bed moves in Z (box and CoreXY): lower the bed well clear and park at the back. */
export function parkBackEnd(opts: { zDrop?: number } = {}): string {
  return [
    'G91 ; relative moves',
    'G1 E-2 F2700 ; pull back filament',
    `G1 Z${opts.zDrop ?? 20} F1200 ; move the bed away`,
    'G90 ; absolute moves',
    'G1 X{bed_width} Y{bed_depth} F6000 ; park at the back',
    'M106 S0 ; fan off',
    'M104 S0 ; nozzle heater off',
    'M140 S0 ; bed heater off',
    'M84 ; motors off',
  ].join('\n');
}

/** Klipper printers with an end macro. */
export function klipperMacroEnd(macro: string): string {
  return ['G91 ; relative moves', 'G1 E-2 F2700 ; pull back filament', 'G1 Z5 F1200 ; lift', 'G90 ; absolute moves', `${macro} ; printer macro: park, heaters and motors off`].join('\n');
}

/** Deltas: home (all the way up) and switch off. */
export function deltaEnd(): string {
  return ['G91 ; relative moves', 'G1 E-2 F2700 ; pull back filament', 'G90 ; absolute moves', 'G28 ; home: carriages to the top', 'M106 S0 ; fan off', 'M104 S0 ; nozzle heater off', 'M140 S0 ; bed heater off', 'M84 ; motors off'].join('\n');
}

/** Ultimaker S-line: the printer cools and parks by itself after the print. */
export function griffinEnd(): string {
  return ['G91 ; relative moves', 'G1 E-2 F2700 ; pull back filament', 'G1 Z5 F1200 ; lift', 'G90 ; absolute moves', 'M106 S0 ; fan off', 'M104 S0 ; nozzle heater off', 'M140 S0 ; bed heater off'].join('\n');
}
