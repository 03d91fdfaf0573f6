// What a filament preset says about a material.

/** [Shore hardness, sparse infill density %]: rows in increasing order of both columns. */
export type ShoreTable = ReadonlyArray<readonly [shore: number, infillDensityPercent: number]>;

export interface FilamentPreset {
  /** `<Vendor>_<Material>`, e.g. "Generic_PLA" */
  name: string;
  vendor: string;
  /** material family: PLA, PETG, ABS, ASA, TPU */
  material: string;
  /** other names clients send ("PLA", "TPU 95A"); matching ignores case and punctuation */
  aliases: readonly string[];
  /** diameters the filament is sold in, mm; the printer picks the one its extruder takes */
  diameters: readonly number[];
  /** g/cm³ */
  density: number;
  /** price per kg */
  cost: number;
  nozzleTemperature: number;
  firstLayerNozzleTemperature: number;
  bedTemperature: number;
  firstLayerBedTemperature: number;
  /** part cooling fan, % */
  fanSpeed: number;
  /** part cooling fan on bridges, % (materials that warp in a draught want little: ABS 25, ASA 30) */
  bridgeFan: number;
  fanOffLayers: number;
  fanFullLayer: number;
  minLayerTime: number;
  flowMultiplier?: number;
  /** flexible grades feed badly when pushed fast or pulled far back */
  flexible: boolean;
  /** changes to the printer's retraction: length × lengthFactor, capped at maxLength; speeds capped at speed */
  retraction?: { lengthFactor?: number; maxLength?: number; speed?: number };
  /** cap on every print speed (flexibles), mm/s; applied after the quality preset */
  maxPrintSpeed?: number;
  shoreScale?: 'A' | 'D';
  /**
   * Hardness → infill density calibration for point clouds: our own engineering estimates (gyroid-like
   * infill, two walls), to be refined with measured coupons. Monotonic; values in between interpolate.
   */
  shoreToDensity?: ShoreTable;
  note?: string;
}
