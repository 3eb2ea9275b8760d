// Dynamic values: `${form.x}`, `${data.x}` and `${screen.ID.form.x}` / `${screen.ID.data.x}`.

/**
 * A string holding a `${…}` expression is resolved on the device, so its static type and length cannot be
 * judged; property checks accept it wherever a literal would go and the reference checks look inside it.
 */
export function isDynamic(value: unknown): value is string {
  return typeof value === 'string' && value.includes('${');
}

export type Reference =
  | { scope: 'form' | 'data'; key: string; text: string }
  | { scope: 'form' | 'data'; key: string; screen: string; text: string };

const EXPRESSION = /\$\{([^}]*)\}/g;
// `screen.<ID>.form.x` is tried first so that its `form.x` tail is not read as a reference to this screen.
const REFERENCE =
  /\bscreen\.([A-Za-z_]\w*)\.(form|data)\.([A-Za-z_][\w-]*)|\b(form|data)\.([A-Za-z_][\w-]*)/g;

export function referencesIn(value: string): Reference[] {
  const found: Reference[] = [];
  for (const expression of value.matchAll(EXPRESSION)) {
    const body = expression[1] ?? '';
    for (const m of body.matchAll(REFERENCE)) {
      if (m[1] !== undefined) {
        found.push({ scope: m[2] as 'form' | 'data', key: m[3] ?? '', screen: m[1], text: m[0] });
      } else {
        found.push({ scope: m[4] as 'form' | 'data', key: m[5] ?? '', text: m[0] });
      }
    }
  }
  return found;
}
