// Errors of settings resolution. Both carry a machine-readable `code` so the service can map them to
// interface error codes (UNKNOWN_* → URE003, EMPTY_XML → URE004, BAD_XML, NO_SHORE_TABLE and
// SettingsError → URE000) and a message written for the person who sent the request.

export type ProfileErrorCode =
  | 'UNKNOWN_PRINTER'
  | 'UNKNOWN_FILAMENT'
  | 'UNKNOWN_QUALITY'
  | 'EMPTY_XML'
  | 'BAD_XML'
  /** a point cloud names a filament that has no Shore calibration table */
  | 'NO_SHORE_TABLE';

/** A preset name that does not exist, or an XML configuration that cannot be read. */
export class ProfileError extends Error {
  readonly code: ProfileErrorCode;
  /** close matches for an unknown name (best first); empty when nothing is close */
  readonly suggestions: string[];
  /** the setting name an XML error is about, when there is one */
  readonly key?: string;

  constructor(code: ProfileErrorCode, message: string, suggestions: string[] = [], key?: string) {
    super(message);
    this.name = 'ProfileError';
    this.code = code;
    this.suggestions = suggestions;
    if (key !== undefined) this.key = key;
  }
}

export type SettingsErrorCode = 'UNKNOWN_KEY' | 'BAD_VALUE';

/** An override (or an XML setting) that names no setting, or a value of the wrong type or range. */
export class SettingsError extends Error {
  readonly code: SettingsErrorCode;
  /** the setting the error is about */
  readonly key: string;
  /** for UNKNOWN_KEY: setting names close to the one given */
  readonly suggestions: string[];

  constructor(code: SettingsErrorCode, key: string, message: string, suggestions: string[] = []) {
    super(message);
    this.name = 'SettingsError';
    this.code = code;
    this.key = key;
    this.suggestions = suggestions;
  }
}
