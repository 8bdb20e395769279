/** Catalogue part 2, group 3c: see ./types.ts. */
import type { ProviderGroup } from "./types.js";

export const group3c: ProviderGroup = {
  pairs: [],
  differences: [],
  factories: [],
};
