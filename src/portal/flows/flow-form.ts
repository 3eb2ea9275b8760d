/** What the flow forms (create, and edit of a DRAFT) share: their errors, the API's part names, the categories. */
import { FLOW_CATEGORIES } from '../../lib/flow-categories.ts';
import { html, type SafeHtml } from '../html.ts';

export type Errors = Partial<Record<'phoneNumber' | 'name' | 'categories' | 'flowJson', string>>;

/** The API's part names (what its errors name) → this form's fields. */
export const FIELD_OF: Record<string, keyof Errors> = {
  phoneNumber: 'phoneNumber',
  name: 'name',
  categories: 'categories',
  file: 'flowJson',
};

/** The flow's categories as checkboxes, with their error. */
export function categoryFields(chosen: readonly string[], error: string | undefined): SafeHtml {
  return html`<fieldset${error ? html` aria-describedby="categories-error"` : ''}><legend>Categories</legend>
${error ? html`<p class="field-error" id="categories-error">${error}</p>` : ''}
${FLOW_CATEGORIES.map((c) => html`<div class="check"><input type="checkbox" id="cat-${c}" name="categories" value="${c}"${chosen.includes(c) ? html` checked` : ''}><label for="cat-${c}">${c}</label></div>`)}
</fieldset>`;
}
