// Public API of the profiles module: catalogue, settings resolution, validation and schema.
export { DEFAULT_END_GCODE, DEFAULT_SETTINGS, DEFAULT_START_GCODE, defaultSettings } from './defaults.js';
export { ProfileError, SettingsError, type ProfileErrorCode, type SettingsErrorCode } from './errors.js';
export { resolveSettings, type ResolveRequest, type ResolvedSettings } from './resolve.js';
export { validateOverrides, validateValue, suggestSettingKeys, type ValidateOptions } from './validate.js';
export { crossCheckSettings, GCODE_PLACEHOLDERS, unknownPlaceholders } from './cross-check.js';
export { parseXmlConfiguration, MAX_XML_BYTES } from './xml-config.js';
export { listPrinters, listFilaments, listQualities } from './catalogue.js';
export { DEFAULT_PRINTER, PRINTERS, findPrinter, getPrinter, printerSettings } from './printers.js';
export type { PrinterPreset, MachineLimits, PrinterRetraction } from './printer-types.js';
export {
  DEFAULT_FILAMENT,
  FILAMENTS,
  findFilament,
  getFilament,
  filamentSettings,
  densityForShore,
  checkShoreTable,
} from './filaments.js';
export type { FilamentPreset, ShoreTable } from './filament-types.js';
export { DEFAULT_QUALITY, QUALITIES, findQuality, getQuality, qualitySettings, layerHeightFor, type QualityPreset } from './qualities.js';
export { SETTINGS_SCHEMA, SETTING_KEYS, settingSpec } from './settings-schema.js';
export { CATEGORY_TITLES, type SettingSpec, type SettingCategory } from './schema-types.js';
