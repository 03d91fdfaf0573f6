// G-code output and print-time estimation: the public surface of src/engine/output.
export { writeGcode, type GcodeMeta, type GcodeStats, type WrittenGcode } from './gcode-writer.js';
export { estimateLayerTimes } from './estimator.js';
export { simulate, simulateSteps, type SimResult } from './simulate.js';
export { limitsFromSettings, type MachineLimits, type AxisValues } from './limits.js';
export { MoveBuffer, type MoveInput } from './move-buffer.js';
export { parseGcode, type ParsedGcode, type GcodeState, type ParseOptions } from './parse-gcode.js';
export { formatInfo, type InfoStrings, type InfoTotals } from './info.js';
export { fillTemplate, templateValues } from './template.js';
export { durationDhms } from './number-format.js';
