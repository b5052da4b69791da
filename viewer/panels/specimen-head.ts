/**
 * @module specimen-head
 * The inspector's heading for the selected specimen: name, badges, description, tags and story.
 */
import type { SpecimenMetadata } from '../../core/wire/wire-types.ts';
import { h, replaceChildren } from '../dom.ts';

/** The story as collapsible paragraphs (metadata files may give a string or a list of paragraphs). */
function storyOf(meta: SpecimenMetadata): HTMLElement | null {
  const paragraphs = (Array.isArray(meta.story) ? meta.story : [meta.story]).filter((p): p is string => typeof p === 'string' && p !== '');
  if (paragraphs.length === 0) return null;
  return h('details', { class: 'story' }, h('summary', {}, 'Story'), ...paragraphs.map((p) => h('p', {}, p)));
}

export class SpecimenHead {
  readonly element = h('section', { class: 'specimen-head', 'data-testid': 'specimen-head' });

  constructor() {
    this.empty();
  }

  empty(): void {
    replaceChildren(
      this.element,
      h('h2', { class: 'specimen-title muted' }, 'No specimen selected'),
      h('p', { class: 'muted' }, 'Pick one from the catalog to see it here.'),
    );
  }

  loading(name: string): void {
    replaceChildren(this.element, h('h2', { class: 'specimen-title' }, name), h('div', { class: 'line skeleton' }));
  }

  show(meta: SpecimenMetadata): void {
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'badges' },
        h('span', { class: `badge ${meta.is_dynamic ? 'dynamic' : 'static'}` }, meta.is_dynamic ? 'dynamic' : 'static'),
        h('span', { class: 'badge type' }, meta.type.replace('_', ' ')),
        meta.function_name ? h('code', { class: 'fn', title: 'function' }, `${meta.function_name}()`) : null,
      ),
      h('h2', { class: 'specimen-title', 'data-testid': 'specimen-title' }, meta.display_name),
      meta.description ? h('p', { class: 'description' }, meta.description) : null,
      meta.tags.length ? h('div', { class: 'tags' }, ...meta.tags.map((t) => h('span', { class: 'tag' }, t))) : null,
      storyOf(meta),
    );
  }
}
