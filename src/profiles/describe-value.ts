// A value as an error message shows it: short, and without walking into arrays or objects (a
// client's value may be megabytes long or thousands of levels deep; JSON.stringify of that either
// floods the answer or overflows the stack).
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : String(value);
}
