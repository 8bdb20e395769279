/**
 * Types shared by the page modules. They live here, below `index.ts`, so that the renderers can
 * use them without importing the module that imports the renderers.
 */

/** Appearance of the pages (the `theme` option of the configuration). */
export interface PageTheme {
  colorScheme?: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
}
