// Pictures and uploads: Image, ImageCarousel, PhotoPicker, DocumentPicker (docs/cloud-api.md §6.4).

import { isDynamic } from '../bindings.ts';
import type { ComponentContext } from '../context.ts';
import { at, isObject, kindOf } from '../paths.ts';
import { checkProperty } from './properties.ts';
import { bool, type ComponentSpec, int, oneOf, type PropSpec, requiredStr, str } from './spec.ts';
import { minNotAboveMax } from './text-entry.ts';

/** docs/cloud-api.md §6.4: an ImageCarousel holds at most 3 images (and at least one to show). */
export const CAROUSEL_IMAGES = { min: 1, max: 3 } as const;
/** docs/cloud-api.md §6.4: PhotoPicker/DocumentPicker label holds at most 30 characters. */
export const PICKER_LABEL_MAX = 30;
/** Picker description limit from Meta's media upload reference (docs/cloud-api.md §6.4 does not state one). */
export const PICKER_DESCRIPTION_MAX = 300;
/** Upload limits from Meta's media upload reference (docs/cloud-api.md §6.4 names the properties only): 25 MB, 30 files. */
export const MAX_FILE_SIZE_KB = 25_600;
export const MAX_UPLOADED_FILES = 30;
/** `scale-type` values from Meta's Image reference. */
export const SCALE_TYPES = ['cover', 'contain'] as const;
/** `photo-source` values from Meta's PhotoPicker reference. */
export const PHOTO_SOURCES = ['camera_gallery', 'camera', 'gallery'] as const;

const CAROUSEL_IMAGE_PROPS: Record<string, PropSpec> = { src: requiredStr(), 'alt-text': str() };

export const MEDIA_COMPONENTS: Record<string, ComponentSpec> = {
  Image: {
    props: {
      // `src` is the picture itself, base64-encoded; Flow JSON has no URL form for it.
      src: requiredStr(),
      width: int(1),
      height: int(1),
      'scale-type': oneOf(SCALE_TYPES),
      'aspect-ratio': { kind: 'number', exclusiveMin: 0 },
      'alt-text': str(),
      visible: bool,
    },
  },
  ImageCarousel: {
    props: {
      images: { kind: 'custom', required: true, check: checkCarouselImages },
      'scale-type': oneOf(SCALE_TYPES),
      'aspect-ratio': str(),
      visible: bool,
    },
  },
  PhotoPicker: {
    props: {
      name: requiredStr(),
      label: requiredStr(PICKER_LABEL_MAX),
      description: str(PICKER_DESCRIPTION_MAX),
      'photo-source': oneOf(PHOTO_SOURCES),
      'max-file-size-kb': int(1, MAX_FILE_SIZE_KB),
      'min-uploaded-photos': int(0, MAX_UPLOADED_FILES),
      'max-uploaded-photos': int(1, MAX_UPLOADED_FILES),
      'error-message': str(),
      enabled: bool,
      visible: bool,
    },
    crossChecks: minNotAboveMax('min-uploaded-photos', 'max-uploaded-photos'),
  },
  DocumentPicker: {
    props: {
      name: requiredStr(),
      label: requiredStr(PICKER_LABEL_MAX),
      description: str(PICKER_DESCRIPTION_MAX),
      'max-file-size-kb': int(1, MAX_FILE_SIZE_KB),
      'min-uploaded-documents': int(0, MAX_UPLOADED_FILES),
      'max-uploaded-documents': int(1, MAX_UPLOADED_FILES),
      'allowed-mime-types': { kind: 'string-list' },
      'error-message': str(),
      enabled: bool,
      visible: bool,
    },
    crossChecks: minNotAboveMax('min-uploaded-documents', 'max-uploaded-documents'),
  },
};

function checkCarouselImages(ctx: ComponentContext, value: unknown, path: string): void {
  if (isDynamic(value)) return;
  if (!Array.isArray(value)) {
    ctx.report(
      path,
      `ImageCarousel "images" must be an array of { "src", "alt-text" }, not ${kindOf(value)}.`,
    );
    return;
  }
  if (value.length < CAROUSEL_IMAGES.min || value.length > CAROUSEL_IMAGES.max) {
    ctx.report(
      path,
      `ImageCarousel "images" has ${value.length} images; between ${CAROUSEL_IMAGES.min} and ${CAROUSEL_IMAGES.max} are allowed.`,
    );
  }
  value.forEach((image, i) => {
    const imagePath = at(path, i);
    if (!isObject(image)) {
      ctx.report(imagePath, `Each carousel image must be an object with "src", not ${kindOf(image)}.`);
      return;
    }
    for (const key of Object.keys(image)) {
      if (!(key in CAROUSEL_IMAGE_PROPS)) {
        ctx.report(at(imagePath, key), `A carousel image accepts only "src" and "alt-text", not "${key}".`);
      }
    }
    for (const [key, spec] of Object.entries(CAROUSEL_IMAGE_PROPS)) {
      const v = image[key];
      if (v === undefined) {
        if (spec.required) ctx.report(at(imagePath, key), `Each carousel image needs "${key}".`);
      } else {
        checkProperty(ctx, 'Carousel image', key, spec, v, at(imagePath, key));
      }
    }
  });
}
