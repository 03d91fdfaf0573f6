// Filament presets. Temperatures, densities and prices are typical published values for each material
// or product; the Shore calibration tables are our own engineering estimates (see filament-types.ts).
import { DEFAULT_SETTINGS as D } from './defaults.js';
import type { FilamentPreset, ShoreTable } from './filament-types.js';

// Rigid PLA prints at about 83 Shore D when solid; sparse infill gives a softer-feeling part.
const PLA_SHORE_D: ShoreTable = [[30, 5], [45, 15], [58, 30], [68, 50], [76, 70], [83, 100]];
const TPU_98A: ShoreTable = [[55, 5], [65, 10], [75, 20], [84, 35], [91, 55], [95, 75], [98, 100]];
const TPU_95A: ShoreTable = [[50, 5], [60, 10], [70, 20], [80, 35], [88, 55], [92, 75], [95, 100]];
const TPU_85A: ShoreTable = [[35, 5], [45, 10], [55, 20], [65, 35], [75, 55], [81, 75], [85, 100]];

const BOTH_SIZES = [1.75, 2.85] as const;

/** Generic PLA: exactly the default profile's filament values. */
const GENERIC_PLA: FilamentPreset = {
  name: 'Generic_PLA',
  vendor: 'Generic',
  material: 'PLA',
  aliases: ['PLA', 'Generic PLA'],
  diameters: BOTH_SIZES,
  density: D.filamentDensity,
  cost: D.filamentCost,
  nozzleTemperature: D.nozzleTemperature,
  firstLayerNozzleTemperature: D.firstLayerNozzleTemperature,
  bedTemperature: D.bedTemperature,
  firstLayerBedTemperature: D.firstLayerBedTemperature,
  fanSpeed: D.fanSpeed,
  bridgeFan: D.bridgeFan,
  fanOffLayers: D.fanOffLayers,
  fanFullLayer: D.fanFullLayer,
  minLayerTime: D.minLayerTime,
  flexible: false,
  shoreScale: 'D',
  shoreToDensity: PLA_SHORE_D,
};

const pla = (p: Partial<FilamentPreset> & Pick<FilamentPreset, 'name' | 'vendor'>): FilamentPreset => ({
  ...GENERIC_PLA,
  aliases: [],
  ...p,
});

const flexible = (
  p: Omit<FilamentPreset, 'material' | 'flexible' | 'shoreScale' | 'bridgeFan' | 'fanOffLayers' | 'fanFullLayer' | 'minLayerTime'> & { bridgeFan?: number },
): FilamentPreset => ({
  material: 'TPU',
  bridgeFan: 80,
  flexible: true,
  shoreScale: 'A',
  fanOffLayers: 1,
  fanFullLayer: 3,
  minLayerTime: 10,
  ...p,
});

export const FILAMENTS: readonly FilamentPreset[] = [
  GENERIC_PLA,
  pla({ name: 'Createch_PLA', vendor: 'Createch', note: 'PLA values of Generic_PLA (the name clients of the hosted service send)' }),
  pla({ name: 'Prusament_PLA', vendor: 'Prusa Polymers', cost: 25, nozzleTemperature: 215, firstLayerNozzleTemperature: 215 }),
  pla({ name: 'Polymaker_PolyLite_PLA', vendor: 'Polymaker', density: 1.17, cost: 22 }),
  pla({ name: 'eSun_PLA+', vendor: 'eSun', aliases: ['eSun PLA Plus'], density: 1.23, cost: 22, nozzleTemperature: 215, firstLayerNozzleTemperature: 215 }),
  {
    name: 'Generic_PETG', vendor: 'Generic', material: 'PETG', aliases: ['PETG'], diameters: BOTH_SIZES,
    density: 1.27, cost: 22, nozzleTemperature: 240, firstLayerNozzleTemperature: 240, bedTemperature: 80, firstLayerBedTemperature: 80,
    fanSpeed: 50, bridgeFan: 50, fanOffLayers: 1, fanFullLayer: 3, minLayerTime: 10, flexible: false,
  },
  {
    name: 'Generic_ABS', vendor: 'Generic', material: 'ABS', aliases: ['ABS'], diameters: BOTH_SIZES,
    density: 1.04, cost: 20, nozzleTemperature: 245, firstLayerNozzleTemperature: 245, bedTemperature: 100, firstLayerBedTemperature: 100,
    fanSpeed: 0, bridgeFan: 25, fanOffLayers: 1, fanFullLayer: 3, minLayerTime: 15, flexible: false,
  },
  {
    name: 'Generic_ASA', vendor: 'Generic', material: 'ASA', aliases: ['ASA'], diameters: BOTH_SIZES,
    density: 1.07, cost: 25, nozzleTemperature: 250, firstLayerNozzleTemperature: 250, bedTemperature: 100, firstLayerBedTemperature: 100,
    fanSpeed: 15, bridgeFan: 30, fanOffLayers: 2, fanFullLayer: 4, minLayerTime: 15, flexible: false,
  },
  flexible({
    name: 'Generic_TPU95A', vendor: 'Generic', aliases: ['TPU', 'TPU 95A', 'Generic_TPU'], diameters: BOTH_SIZES,
    density: 1.21, cost: 35, nozzleTemperature: 225, firstLayerNozzleTemperature: 225, bedTemperature: 50, firstLayerBedTemperature: 50,
    fanSpeed: 50, retraction: { lengthFactor: 0.4, maxLength: 2, speed: 20 }, maxPrintSpeed: 25, shoreToDensity: TPU_95A,
  }),
  flexible({
    name: 'Generic_TPU85A', vendor: 'Generic', aliases: ['TPU 85A'], diameters: BOTH_SIZES,
    density: 1.2, cost: 40, nozzleTemperature: 225, firstLayerNozzleTemperature: 225, bedTemperature: 50, firstLayerBedTemperature: 50,
    fanSpeed: 50, retraction: { lengthFactor: 0.2, maxLength: 1, speed: 15 }, maxPrintSpeed: 15, shoreToDensity: TPU_85A,
  }),
  flexible({
    name: 'Ninjatek_NinjaFlex', vendor: 'NinjaTek', aliases: ['NinjaFlex', 'NinjaTek NinjaFlex 85A'], diameters: BOTH_SIZES,
    density: 1.19, cost: 90, nozzleTemperature: 230, firstLayerNozzleTemperature: 230, bedTemperature: 40, firstLayerBedTemperature: 40,
    fanSpeed: 50, retraction: { lengthFactor: 0.2, maxLength: 1, speed: 15 }, maxPrintSpeed: 20, shoreToDensity: TPU_85A,
  }),
  flexible({
    name: 'Ninjatek_Cheetah', vendor: 'NinjaTek', aliases: ['Cheetah', 'NinjaTek Cheetah 95A'], diameters: BOTH_SIZES,
    density: 1.22, cost: 90, nozzleTemperature: 235, firstLayerNozzleTemperature: 235, bedTemperature: 40, firstLayerBedTemperature: 40,
    fanSpeed: 50, retraction: { lengthFactor: 0.5, maxLength: 2, speed: 25 }, maxPrintSpeed: 40, shoreToDensity: TPU_95A,
  }),
  flexible({
    name: 'Fillamentum_Flexfill_98A', vendor: 'Fillamentum', aliases: ['Flexfill 98A', 'Fillamentum Flexfill TPU 98A'], diameters: BOTH_SIZES,
    density: 1.23, cost: 50, nozzleTemperature: 230, firstLayerNozzleTemperature: 230, bedTemperature: 50, firstLayerBedTemperature: 50,
    fanSpeed: 50, retraction: { lengthFactor: 0.5, maxLength: 2.5, speed: 25 }, maxPrintSpeed: 30, shoreToDensity: TPU_98A,
  }),
  flexible({
    name: 'Polymaker_PolyFlex_TPU95', vendor: 'Polymaker', aliases: ['PolyFlex TPU95'], diameters: BOTH_SIZES,
    density: 1.22, cost: 40, nozzleTemperature: 220, firstLayerNozzleTemperature: 220, bedTemperature: 50, firstLayerBedTemperature: 50,
    fanSpeed: 50, retraction: { lengthFactor: 0.4, maxLength: 2, speed: 20 }, maxPrintSpeed: 30, shoreToDensity: TPU_95A,
  }),
];
