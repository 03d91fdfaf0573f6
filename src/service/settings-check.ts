// Resolves a task's settings once at task start, so a wrong printer or preset name is answered
// right away (URE003 with close matches) instead of surfacing later as a failed task. The worker
// resolves again from the same request.
import { resolveSettings } from '../profiles/index.js';
import { ApiError, badRequest } from './errors.js';
import type { SliceRequest } from './model.js';

export function checkSliceRequest(request: SliceRequest, xml: string | undefined): { warnings: string[]; supportType: string } {
  try {
    const { warnings, settings } = resolveSettings({
      printer: request.printer,
      filament: request.filament,
      quality: request.quality,
      overrides: request.overrides,
      xml,
    });
    return { warnings, supportType: settings.supportType };
  } catch (err) {
    throw settingsErrorToApi(err);
  }
}

/** Maps the profiles module's errors (matched by name: they may cross a thread boundary) to API errors. */
export function settingsErrorToApi(err: unknown): unknown {
  const e = err as { name?: string; code?: string; message?: string; suggestions?: string[]; key?: string };
  if (e?.name === 'ProfileError') {
    const suggestions = Array.isArray(e.suggestions) ? e.suggestions : [];
    switch (e.code) {
      case 'UNKNOWN_PRINTER':
      case 'UNKNOWN_FILAMENT':
      case 'UNKNOWN_QUALITY': {
        let message = e.message ?? 'unknown preset';
        if (suggestions.length > 0 && !message.includes(suggestions[0]!)) {
          message += ` Close matches: ${suggestions.join(', ')}.`;
        }
        return new ApiError('URE003', message, { suggestions });
      }
      case 'EMPTY_XML':
        return new ApiError('URE004', e.message ?? 'the configuration file is empty');
      default:
        return badRequest(e.message ?? 'the configuration file cannot be read', e.key ? { key: e.key } : undefined);
    }
  }
  if (e?.name === 'SettingsError') {
    const details: Record<string, unknown> = {};
    if (e.key) details.key = e.key;
    if (Array.isArray(e.suggestions) && e.suggestions.length) details.suggestions = e.suggestions;
    return badRequest(e.message ?? 'invalid setting', details);
  }
  return err;
}
